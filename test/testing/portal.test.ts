/**
 * The portal's HTML, rendered without a browser: what the buyer reads for each status, token amounts from
 * their smallest units, escaping of everything that came from a request or a record. The browser tests
 * (`test/testing/portal.e2e.test.ts`) drive the same page in Chromium.
 */
import { describe, expect, it } from "vitest";
import { createMockService } from "../../src/testing/index.js";
import { formatCountdown, formatTokenAmount, networkName } from "../../src/testing/portal/format.js";
import {
  escapeHtml,
  type PortalInput,
  renderPortal,
  renderPortalNotFound,
} from "../../src/testing/portal/render.js";
import type { MockPaymentOption } from "../../src/testing/store/options.js";
import type { MockMerchantRecord, MockPaymentRecord, PaymentStatus } from "../../src/testing/store/types.js";

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const ASSET = "eip155:84532/erc20:0x036CbD53842c5426634e7929541eC2318f3dCF7e";

function payment(overrides: Partial<MockPaymentRecord> = {}): MockPaymentRecord {
  return {
    id: "pay_123",
    accountId: "acct_1",
    mode: "test",
    merchantId: "mrch_1",
    referenceId: "order-42",
    amount: { unit: "iso4217/USD", value: "1999" },
    flow: "checkout",
    redirects: { successUrl: "https://shop.example/ok", errorUrl: "https://shop.example/err?x=1" },
    status: "requires_action",
    createdAt: NOW,
    expiresAt: NOW + 15 * 60_000,
    selectedOptionId: null,
    buyerAddress: null,
    info: null,
    cancelledAt: null,
    history: [{ status: "requires_action", at: NOW }],
    ...overrides,
  };
}

const MERCHANT: MockMerchantRecord = {
  id: "mrch_1",
  accountId: "acct_1",
  mode: "test",
  name: "Corner Bakery",
  email: null,
  status: "active",
  iconUrl: null,
  createdAt: NOW,
  settlements: { crypto: [], fiat: [] },
};

const OPTION: MockPaymentOption = {
  optionId: "crypto_1",
  asset: ASSET,
  chainId: "eip155:84532",
  destination: "eip155:84532:0x5555555555555555555555555555555555555555",
  symbol: "USDC",
  decimals: 6,
  amount: { unit: `caip19/${ASSET}`, value: "19990000" },
  actionable: true,
};

function render(overrides: Partial<PortalInput> = {}): string {
  return renderPortal({
    payment: payment(),
    merchant: MERCHANT,
    options: [OPTION],
    controlPrefix: "/__mock",
    now: NOW,
    ...overrides,
  });
}

/** The text of the elements a buyer can see: markup, style and script removed, hidden elements left out. */
function visibleText(html: string): string {
  return html
    .replace(/<(script|style|head)[^>]*>[\s\S]*?<\/\1>/g, " ")
    .replace(/<(\w+)[^>]*\bhidden\b[^>]*>[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

function textOf(html: string, id: string): string | undefined {
  const match = new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html);
  return match?.[1];
}

describe("formatTokenAmount (bigint arithmetic from the token's decimals)", () => {
  it.each([
    ["19990000", 6, "19.99"],
    ["42500000", 6, "42.50"],
    ["1000000", 6, "1.00"],
    ["1", 6, "0.000001"],
    ["1", 18, "0.000000000000000001"],
    ["1234567000000", 6, "1,234,567.00"],
    ["5", 0, "5"],
    ["5", 1, "0.5"],
    // Beyond 2^53: a float would round these.
    ["123456789012345678901234567891", 18, "123,456,789,012.345678901234567891"],
    ["9007199254740993", 2, "90,071,992,547,409.93"],
  ])("%s with %i decimals reads %s", (units, decimals, shown) => {
    expect(formatTokenAmount(units, decimals)).toBe(shown);
  });
});

describe("networkName", () => {
  it("names the networks a buyer meets, and never prints a CAIP-2 prefix for an EVM chain", () => {
    expect(networkName("eip155:84532")).toBe("Base Sepolia");
    expect(networkName("eip155:8453")).toBe("Base");
    expect(networkName("eip155:1")).toBe("Ethereum");
    expect(networkName("eip155:31337")).toBe("chain 31337");
  });
});

describe("formatCountdown", () => {
  it.each([
    [15 * 60_000, "15 min 00 s"],
    [61_000, "1 min 01 s"],
    [500, "1 s"],
    [-5_000, "0 s"],
    [3_723_000, "1 h 02 min 03 s"],
  ])("%i ms reads %s: units named, never like a time of day", (ms, shown) => {
    expect(formatCountdown(ms)).toBe(shown);
  });
});

describe("renderPortal: what the buyer reads", () => {
  const words: [PaymentStatus, string][] = [
    ["requires_action", "Waiting for payment"],
    ["processing", "Processing…"],
    ["succeeded", "Paid"],
    ["failed", "Payment failed"],
    ["expired", "Payment expired"],
    ["cancelled", "Payment cancelled"],
  ];

  it.each(words)("%s reads %s, with no internal names", (status, title) => {
    const html = render({ payment: payment({ status }) });
    expect(textOf(html, "status")).toBe(title);
    const text = visibleText(html);
    expect(text).not.toMatch(/requires_action|eip155|caip19|\bunits\b|\(failed\)/);
    if (status === "expired" || status === "cancelled") expect(text).not.toMatch(/failed/i);
  });

  it("shows the fiat amount with the currency's digits and each option in tokens on a named network", () => {
    const html = render();
    expect(textOf(html, "amount")).toBe("19.99 USD");
    expect(visibleText(html)).toContain("19.99 USDC on Base Sepolia");
    expect(render({ payment: payment({ amount: { unit: "iso4217/JPY", value: "1999" } }) })).toContain(
      '<p class="amount" id="amount">1999 JPY</p>',
    );
  });

  it("counts down to expiry from the mock's clock, only while the payment waits", () => {
    expect(textOf(render({ now: NOW + 10 * 60_000 }), "expiry-time")).toBe("5 min 00 s");
    expect(render({ payment: payment({ status: "processing" }) })).toMatch(/id="expiry" hidden/);
  });

  it("links back to the shop with payment_id when redirects are on, and says the page may close when off", () => {
    const paid = render({ payment: payment({ status: "succeeded" }) });
    expect(paid).toContain('href="https://shop.example/ok?payment_id=pay_123"');
    expect(paid).toMatch(/<div id="redirect">/);
    const expired = render({ payment: payment({ status: "expired" }) });
    expect(expired).toContain('href="https://shop.example/err?x=1&amp;payment_id=pay_123"');
    const generic = render({ payment: payment({ status: "succeeded", redirects: null }) });
    expect(generic).toMatch(/<div id="redirect" hidden>/);
    expect(visibleText(generic)).toContain("You can close this page.");
  });

  it("names what a succeeded payment was paid with", () => {
    const info = { txId: "test:pay_123", optionAmount: { unit: `caip19/${ASSET}`, value: "19990000" } };
    expect(textOf(render({ payment: payment({ status: "succeeded", info }) }), "paid-with")).toBe(
      "Paid with 19.99 USDC on Base Sepolia",
    );
  });

  it("escapes what came from a record, in the text and in the script data", () => {
    const hostile = `</script><script>alert(1)</script><b>&`;
    const html = render({
      payment: payment({ referenceId: hostile }),
      merchant: { ...MERCHANT, name: hostile },
    });
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<b>");
    expect(html).toContain(escapeHtml(hostile));
    // Two script elements and no more: the data cannot close its element.
    expect(html.match(/<\/script>/g)).toHaveLength(2);
  });

  it("prints a merchant name as written, even one that looks like a replacement pattern", () => {
    const html = render({
      payment: payment({ status: "cancelled" }),
      merchant: { ...MERCHANT, name: "A$&B $1" },
    });
    expect(textOf(html, "message")).toBe("A$&amp;B $1 cancelled this payment.");
  });

  it("links the favicon and loads nothing from elsewhere", () => {
    const html = render();
    expect(html).toContain('<link rel="icon" href="/favicon.ico">');
    expect(html).not.toMatch(/<(link|script)[^>]+(href|src)="https?:/);
  });
});

describe("renderPortalNotFound", () => {
  it("says plainly the payment was not found, in the portal's look, with the id escaped and cut short", () => {
    const id = `pay_<img src=x onerror=alert(1)>${"x".repeat(200)}`;
    const html = renderPortalNotFound(id);
    expect(textOf(html, "status")).toBe("We couldn't find this payment");
    expect(html).toContain('<link rel="icon" href="/favicon.ico">');
    expect(html).toContain("<style>");
    expect(html).not.toContain("<img");
    const shown = textOf(html, "payment-id") ?? "";
    expect(shown.startsWith("pay_&lt;img src=x onerror=alert(1)&gt;")).toBe(true);
    expect(shown.length).toBeLessThan(200);
  });
});

describe("fiat → token at the mock's own rate", () => {
  async function portalOf(unit: string, value: string) {
    const mock = createMockService();
    const res = await mock.fetch(`${mock.baseUrl}/v1/merchant/payment`, {
      method: "POST",
      headers: {
        "Api-Key": mock.keys.test,
        "Merchant-Id": mock.merchantId,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ referenceId: "o", amount: { unit, value } }),
    });
    const { paymentId, gatewayUrl } = (await res.json()) as { paymentId: string; gatewayUrl: string };
    const html = await (await mock.fetch(gatewayUrl)).text();
    return { html, option: mock.paymentOptions(paymentId)[0]! };
  }

  it("1000 JPY is a few USDC, not 1,000.00 USDC, and the page says whose rate it is", async () => {
    const { html, option } = await portalOf("iso4217/JPY", "1000");
    expect(option.amount.value).toBe("6700000");
    expect(html).toContain("6.70 USDC on Base Sepolia");
    expect(html).not.toContain("1,000.00 USDC");
    expect(textOf(html, "rate")).toBe(
      "Token amounts at the mock&#39;s own fixed rate 1 JPY = 0.0067 USD, with 1 token = 1 USD (not a market price).",
    );
  });

  it("USD stays 1:1; a currency without a rate says so", async () => {
    const usd = await portalOf("iso4217/USD", "1999");
    expect(usd.html).toContain("19.99 USDC on Base Sepolia");
    expect(textOf(usd.html, "rate")).toContain("not a market price");
    const xof = await portalOf("iso4217/XOF", "500");
    expect(textOf(xof.html, "rate")).toBe(
      "The mock has no rate for XOF: token amounts take 1 XOF = 1 USD (not a market price).",
    );
  });
});
