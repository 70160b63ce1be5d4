/**
 * the payment creation answer. The document names "the payment `id` and a link the buyer opens in a
 * wallet" and leaves the link's field name open, so the SDK reads the reasonable spellings into stable names:
 * `id` (from `id` or `paymentId`) and `link` (from the first of WALLET_LINK_FIELDS, else the one other field that holds
 * an https URL or a wallet URI).
 */
import { describe, expect, it } from "vitest";
import {
  type CreatePaymentResponse,
  createPaymentResponseSchema,
  findWalletLink,
  readResponse,
  unknownField,
  WALLET_LINK_FIELDS,
} from "../../src/schemas/index.js";

const LINK = "https://pay.example/p/pay_1";

function read(body: unknown, mode: "strict" | "tolerant" = "strict") {
  return readResponse(createPaymentResponseSchema, body, mode);
}

function created(body: unknown): CreatePaymentResponse {
  const reading = read(body);
  if (!reading.success) throw new Error(JSON.stringify(reading.issues));
  return reading.data;
}

describe("the payment id", () => {
  it("is read from id", () => {
    expect(created({ id: "pay_1", link: LINK }).id).toBe("pay_1");
  });

  it("is read from paymentId when the answer names it so, as the checkout creation does (measured)", () => {
    const payment = created({ paymentId: "pay_1", paymentLink: LINK });
    expect(payment.id).toBe("pay_1");
    expect(unknownField(payment, "paymentId")).toBe("pay_1"); // the service's own field is kept
  });

  it.each(["strict", "tolerant"] as const)("%s: no id at all fails; no id is invented", (mode) => {
    expect(read({ link: LINK }, mode)).toEqual({
      success: false,
      issues: [{ path: "id", message: "is required (as id or paymentId)" }],
    });
  });

  it.each(["strict", "tolerant"] as const)(
    "%s: id and paymentId that disagree fail: the id and the link must not name two payments",
    (mode) => {
      expect(read({ id: "pay_1", paymentId: "pay_2", link: LINK }, mode)).toEqual({
        success: false,
        issues: [{ path: "paymentId", message: "must equal id when both are sent" }],
      });
    },
  );
});

describe("the wallet link", () => {
  it.each(WALLET_LINK_FIELDS.map((field) => [field]))("is found in %s", (field) => {
    expect(created({ id: "pay_1", [field]: LINK }).link).toBe(LINK);
  });

  it.each(WALLET_LINK_FIELDS.map((field, index) => [field, index]))(
    "takes %s before every field after it in WALLET_LINK_FIELDS",
    (field, index) => {
      const answer: Record<string, unknown> = { id: "pay_1" };
      for (const later of WALLET_LINK_FIELDS.slice(index)) answer[later] = `https://pay.example/${later}`;
      expect(findWalletLink(answer)).toBe(`https://pay.example/${field}`);
    },
  );

  it("takes the first named field in the documented order", () => {
    expect(created({ id: "pay_1", url: "https://b.example", walletUrl: "https://a.example" }).link).toBe(
      "https://a.example",
    );
  });

  it("may be a wallet URI, not only an https URL", () => {
    const uri = "ethereum:0xa0b8@8453/transfer?address=0x1111&uint256=1050000";
    expect(created({ id: "pay_1", link: uri }).link).toBe(uri);
  });

  it("skips a named field that holds no link (an object, a word)", () => {
    expect(created({ id: "pay_1", link: { href: LINK }, url: "pending", walletUrl: LINK }).link).toBe(LINK);
  });

  it("falls back to the one other field holding an https URL or a wallet URI", () => {
    expect(created({ id: "pay_1", qr: "solana:7xKX?amount=1" }).link).toBe("solana:7xKX?amount=1");
    expect(created({ id: "pay_1", hostedPage: LINK, txId: "test:pay_1" }).link).toBe(LINK);
  });

  it("does not guess between two unnamed candidates, nor take an id-like string", () => {
    expect(findWalletLink({ id: "pay_1", a: LINK, b: "https://other.example" })).toBeUndefined();
    expect(findWalletLink({ id: "pay_1", chain: "eip155:8453", txId: "test:pay_1" })).toBeUndefined();
  });

  it.each(["strict", "tolerant"] as const)("%s: no link fails (the type promises one)", (mode) => {
    const reading = read({ id: "pay_1" }, mode);
    expect(reading.success).toBe(false);
    expect(!reading.success && reading.issues[0]?.path).toBe("link");
  });

  it.each(["strict", "tolerant"] as const)(
    "%s: is each answer's own, after an answer that failed and across answers read in turn",
    (mode) => {
      expect(read({ id: "pay_1", paymentId: "pay_2", link: "https://a.example" }, mode).success).toBe(false);
      const reading = read({ id: "pay_3", walletUrl: "https://b.example", extra: 1 }, mode);
      expect(reading.success && reading.data.link).toBe("https://b.example");
      const next = read({ id: "pay_4", url: "ethereum:0xabc@8453" }, mode);
      expect(next.success && next.data.link).toBe("ethereum:0xabc@8453");
    },
  );

  it("keeps every field the service sent besides the stable names", () => {
    const payment = created({ id: "pay_1", walletUrl: LINK, expiresAt: "2026-02-19T10:15:00.000Z" });
    expect(payment).toEqual({
      id: "pay_1",
      walletUrl: LINK,
      link: LINK,
      expiresAt: "2026-02-19T10:15:00.000Z",
    });
  });
});
