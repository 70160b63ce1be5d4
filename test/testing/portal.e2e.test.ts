/**
 * The mock's checkout portal in a real headless Chromium (see `./browser.ts`), as a buyer sees it: each
 * payment status in plain words, the test wallet buttons, the processing state, the expiry countdown, the
 * 3-second countdown and redirect back to a tiny merchant site on 127.0.0.1 (which the SDK then verifies),
 * the generic messages when redirects are off, and the page for an unknown payment.
 *
 * Payments move between states through the public `merchant-payments/testing` API. The page runs on
 * Playwright's fake clock (`page.clock.install()`): its timers (polling once a second, the expiry clock, the
 * redirect countdown) fire only when a test lets page time pass with `pass(ms)`, so no assertion races a
 * countdown on a slow machine, and "no redirect" is proven by letting page time pass, not by sleeping.
 * Real-time waits are only for page events (network answers, navigation), each bounded by {@link WAIT_MS}.
 * Each state is screenshotted into `.tmp/portal-screens/` (git-ignored) for a human to look at.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MerchantPaymentsClient, money } from "merchant-payments";
import { DEFAULT_TEST_ASSET, type MockServer, startMockServer } from "merchant-payments/testing";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { browserSkipReason, CHROMIUM_ARGS, CHROMIUM_PATH, missingBrowser } from "../helpers/browser.js";

const SUITE = "checkout portal in headless Chromium";
const SKIP_REASON = browserSkipReason(SUITE);
/** Every wait of this file is bounded by this; none is a speed assertion. */
const WAIT_MS = 15_000;
/** Time allowed to one test, or to launching the browser. */
const TEST_TIMEOUT_MS = 60_000;
const SCREENSHOTS = resolve(".tmp/portal-screens");
/** The mock's default lifetime of an unpaid payment. */
const PAYMENT_TTL_MS = 15 * 60_000;
/** Words only the service and the SDK use: the buyer must never read them. */
const INTERNALS = [
  /requires_action/,
  /eip155/i,
  /caip/i,
  /\bunits\b/,
  /\(failed\)/,
  /\bundefined\b/,
  /\bnull\b/,
];

/** A tiny merchant site on 127.0.0.1: `/success` and `/error` pages; records what it served. */
async function startMerchantSite(): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || (url.pathname !== "/success" && url.pathname !== "/error")) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    hits.push(`${url.pathname}${url.search}`);
    const title = url.pathname === "/success" ? "Thank you" : "Payment failed";
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(
        `<!doctype html><html><head><title>${title}</title></head><body><h1 id="landing">${title}</h1></body></html>`,
      );
  });
  await new Promise<void>((ready, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", ready);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

// A test makes a few bounded waits in a row, and launching Chromium on a loaded machine is slow: room for both.
describe.skipIf(SKIP_REASON !== null)(SKIP_REASON ?? SUITE, { timeout: TEST_TIMEOUT_MS }, () => {
  const MERCHANT_NAME = "Corner Bakery & Sons";
  let mockServer: MockServer;
  let site: Awaited<ReturnType<typeof startMerchantSite>>;
  let context: BrowserContext;
  let userDataDir: string;
  let client: MerchantPaymentsClient;
  let page: Page;

  beforeAll(async () => {
    const missing = missingBrowser();
    if (missing) throw new Error(`REQUIRE_BROWSER=1 but ${missing}.`);
    await mkdir(SCREENSHOTS, { recursive: true });
    mockServer = await startMockServer();
    site = await startMerchantSite();
    userDataDir = await mkdtemp(join(tmpdir(), "mp-e2e-chromium-"));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: TEST_TIMEOUT_MS,
      viewport: { width: 800, height: 760 },
    });

    // A merchant of our own, created and configured through the SDK, so the portal shows its name.
    const setup = new MerchantPaymentsClient({
      apiKey: mockServer.service.keys.test,
      baseUrl: mockServer.url,
    });
    const merchant = await setup.merchants.create({ name: MERCHANT_NAME, email: "orders@bakery.example" });
    await setup.settlements.createCrypto(merchant.id, [
      { asset: DEFAULT_TEST_ASSET, destination: "eip155:84532:0x5555555555555555555555555555555555555555" },
    ]);
    client = new MerchantPaymentsClient({
      apiKey: mockServer.service.keys.test,
      baseUrl: mockServer.url,
      merchantId: merchant.id,
    });
  }, TEST_TIMEOUT_MS);

  afterAll(async () => {
    await context?.close();
    await site?.close();
    await mockServer?.close();
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    page = await context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    page.setDefaultNavigationTimeout(WAIT_MS);
    // The page's time stands still from the start: only pass(ms) moves it.
    const start = Date.now();
    await page.clock.install({ time: start });
    await page.clock.pauseAt(start + 1_000);
  });

  afterEach(async () => {
    await page?.close();
  });

  function createCheckout(referenceId: string) {
    return client.checkout.create({
      referenceId,
      amount: money("19.99", "USD"),
      successUrl: `${site.url}/success`,
      errorUrl: `${site.url}/error`,
    });
  }

  /** Lets `ms` of page time pass: the page's timers due in that span fire, in order. */
  async function pass(ms: number): Promise<void> {
    await page.clock.runFor(ms);
  }

  async function screenshot(name: string): Promise<void> {
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  async function text(selector: string): Promise<string | null> {
    return page.locator(selector).textContent();
  }

  /** The text the buyer can read (no markup, no scripts), checked for internals. */
  async function expectPlainWords(): Promise<void> {
    // innerText on purpose: it is what is rendered (hidden sections and scripts left out), as the buyer sees it.
    const visible = await page.locator("body").innerText();
    for (const internal of INTERNALS) expect(visible).not.toMatch(internal);
  }

  /** Lets one poll happen (the page asks the mock once a second), then waits for the page to show `title`. */
  async function pollUntilStatus(title: string): Promise<void> {
    await pass(1_000);
    await page
      .locator("#status")
      .filter({ hasText: new RegExp(`^${title}$`) })
      .waitFor();
  }

  /** On "in 3…", the whole 3 seconds pass before the page leaves for `target`, and not one millisecond less. */
  async function expectRedirectAfterThreeSeconds(target: string): Promise<void> {
    await page
      .locator("#countdown")
      .filter({ hasText: /in 3…$/ })
      .waitFor();
    expect(await text("#countdown")).toBe(`Returning to ${MERCHANT_NAME} in 3…`);
    expect(await page.locator("#return-link").getAttribute("href")).toBe(target);
    await pass(2_999);
    expect(await text("#countdown")).toBe(`Returning to ${MERCHANT_NAME} in 1…`);
    await pass(1);
    await page.waitForURL(target);
  }

  /** Opens the portal and checks what the buyer sees before paying. */
  async function openUnpaid(gatewayUrl: string, referenceId: string): Promise<void> {
    const response = await page.goto(gatewayUrl, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe(`Pay ${MERCHANT_NAME} (mock)`);
    expect(await text("#merchant-name")).toBe(MERCHANT_NAME);
    expect(await text("#amount")).toBe("19.99 USD");
    expect(await text("#reference")).toBe(referenceId);
    expect(await text("#status")).toBe("Waiting for payment");
    expect(await text("#options")).toContain("19.99 USDC on Base Sepolia");
    expect(await page.locator("#pay").isEnabled()).toBe(true);
    expect(await page.locator("#countdown").isHidden()).toBe(true);
  }

  it("waiting for payment: amount in USDC on Base Sepolia, test wallet buttons, expiry countdown", async () => {
    const { gatewayUrl } = await createCheckout("order-e2e-open");
    await openUnpaid(gatewayUrl, "order-e2e-open");
    expect(await text("#pay")).toBe("Pay with test wallet");
    expect(await text("#fail")).toBe("Simulate a failed payment");
    expect(await page.getAttribute("link[rel=icon]", "href")).toBe("/favicon.ico");
    await expectPlainWords();

    // 15 minutes at creation; the page counts down from what was left when it was served, once a second.
    // Named units: "14:51" would read as a time of day.
    const [, minutes, seconds] =
      /^Time left to pay: (\d+) min (\d\d) s$/.exec((await text("#expiry")) ?? "") ?? [];
    const left = Number(minutes) * 60 + Number(seconds);
    expect(left).toBeGreaterThan(PAYMENT_TTL_MS / 1000 - 60);
    expect(left).toBeLessThanOrEqual(PAYMENT_TTL_MS / 1000);
    await pass(60_000);
    expect(await text("#expiry")).toBe(
      `Time left to pay: ${Math.floor((left - 60) / 60)} min ${String((left - 60) % 60).padStart(2, "0")} s`,
    );
    await screenshot("1-waiting");

    // A phone: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 740 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot("1-waiting-phone");
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot("1-waiting-phone-dark");
  });

  it("pays: Paid, 3-second countdown, redirect to /success?payment_id=…, verifyReturn says fulfil", async () => {
    const { paymentId, gatewayUrl } = await createCheckout("order-e2e-pay");
    expect(gatewayUrl).toBe(`${mockServer.url}/portal/${paymentId}`);
    await openUnpaid(gatewayUrl, "order-e2e-pay");

    await page.locator("#pay").click();
    await page
      .locator("#countdown")
      .filter({ hasText: /in 3…$/ })
      .waitFor();
    expect(await text("#status")).toBe("Paid");
    expect(await text("#message")).toBe(`Thank you! ${MERCHANT_NAME} has received your payment.`);
    expect(await text("#paid-with")).toBe("Paid with 19.99 USDC on Base Sepolia");
    expect(await page.locator("#pay").isHidden()).toBe(true);
    await expectPlainWords();
    await screenshot("3-paid-countdown");

    const success = `${site.url}/success?payment_id=${paymentId}`;
    await expectRedirectAfterThreeSeconds(success);
    expect(await text("#landing")).toBe("Thank you");
    expect(site.hits).toContain(`/success?payment_id=${paymentId}`);

    const outcome = await client.checkout.verifyReturn({ url: page.url(), expectedPaymentId: paymentId });
    expect(outcome).toMatchObject({ paymentId, fulfil: true, next: "fulfil" });
    expect(outcome.status).toMatchObject({
      status: "succeeded",
      isFinal: true,
      info: { txId: `test:${paymentId}` },
    });
  });

  it("processing: says so, offers no button, then follows the payment to Paid and back to the shop", async () => {
    const { paymentId, gatewayUrl } = await createCheckout("order-e2e-processing");
    mockServer.service.markProcessing(paymentId);
    await page.goto(gatewayUrl);
    expect(await text("#status")).toBe("Processing…");
    expect(await text("#message")).toMatch(/waiting for the network to confirm it/);
    expect(await page.locator("#pay").isHidden()).toBe(true);
    expect(await page.locator("#fail").isHidden()).toBe(true);
    expect(await page.locator("#expiry").isHidden()).toBe(true);
    await expectPlainWords();
    await screenshot("2-processing");

    mockServer.service.completePayment(paymentId);
    await pollUntilStatus("Paid");
    await expectRedirectAfterThreeSeconds(`${site.url}/success?payment_id=${paymentId}`);
  });

  it("fails: Payment failed in plain words, redirect to /error?payment_id=…, verifyReturn says show_error", async () => {
    const { paymentId, gatewayUrl } = await createCheckout("order-e2e-fail");
    await openUnpaid(gatewayUrl, "order-e2e-fail");

    await page.locator("#fail").click();
    await page
      .locator("#countdown")
      .filter({ hasText: /in 3…$/ })
      .waitFor();
    expect(await text("#status")).toBe("Payment failed");
    expect(await text("#message")).toBe("The payment did not go through. You can try again from the shop.");
    await expectPlainWords();
    await screenshot("4-failed");

    await expectRedirectAfterThreeSeconds(`${site.url}/error?payment_id=${paymentId}`);
    expect(await text("#landing")).toBe("Payment failed");
    const outcome = await client.checkout.verifyReturn({ url: page.url(), expectedPaymentId: paymentId });
    expect(outcome).toMatchObject({ paymentId, fulfil: false, next: "show_error" });
    expect(outcome.status).toEqual({ status: "failed", isFinal: true, pollInMs: null });
  });

  it("expires while open: the mock's clock passes the expiry and the page says Payment expired", async () => {
    const { paymentId, gatewayUrl } = await createCheckout("order-e2e-expire");
    await openUnpaid(gatewayUrl, "order-e2e-expire");

    mockServer.service.advanceTime(PAYMENT_TTL_MS + 1_000);
    await pollUntilStatus("Payment expired");
    expect(await text("#message")).toBe(
      "This payment request expired before it was paid. Start a new payment from the shop.",
    );
    expect(await page.locator("#pay").isHidden()).toBe(true);
    expect(await page.locator("#expiry").isHidden()).toBe(true);
    await expectPlainWords();
    await screenshot("5-expired");
    await expectRedirectAfterThreeSeconds(`${site.url}/error?payment_id=${paymentId}`);
    expect((await client.checkout.status(paymentId)).status).toBe("expired");
  });

  it("cancelled by the merchant while open: the page says Payment cancelled", async () => {
    const { paymentId, gatewayUrl } = await createCheckout("order-e2e-cancel");
    await openUnpaid(gatewayUrl, "order-e2e-cancel");

    mockServer.service.cancelPayment(paymentId);
    await pollUntilStatus("Payment cancelled");
    expect(await text("#message")).toBe(`${MERCHANT_NAME} cancelled this payment.`);
    expect(await page.locator("#pay").isHidden()).toBe(true);
    await expectPlainWords();
    await screenshot("6-cancelled");
    await expectRedirectAfterThreeSeconds(`${site.url}/error?payment_id=${paymentId}`);
  });

  it("without redirects: generic Paid and Payment failed messages, no countdown, no link, no redirect", async () => {
    const paid = await client.checkout.create({
      referenceId: "order-e2e-generic-paid",
      amount: money("19.99", "USD"),
      redirects: false,
    });
    await openUnpaid(paid.gatewayUrl, "order-e2e-generic-paid");
    await page.locator("#pay").click();
    await page.locator("#close-hint").waitFor();
    expect(await text("#status")).toBe("Paid");
    expect(await text("#close-hint")).toBe("You can close this page.");
    expect(await page.locator("#redirect").isHidden()).toBe(true);
    await expectPlainWords();
    await screenshot("7-no-redirect-paid");
    // Far longer than the countdown a redirect would have used: the buyer stays.
    await pass(10_000);
    expect(page.url()).toBe(paid.gatewayUrl);
    expect(site.hits.filter((hit) => hit.includes(paid.paymentId))).toEqual([]);
    expect((await client.checkout.status(paid.paymentId)).status).toBe("succeeded");

    const failed = await client.checkout.create({
      referenceId: "order-e2e-generic-fail",
      amount: money("19.99", "USD"),
      redirects: false,
    });
    await openUnpaid(failed.gatewayUrl, "order-e2e-generic-fail");
    await page.locator("#fail").click();
    await page.locator("#close-hint").waitFor();
    expect(await text("#status")).toBe("Payment failed");
    expect(await page.locator("#redirect").isHidden()).toBe(true);
    await screenshot("7-no-redirect-failed");
    await pass(10_000);
    expect(page.url()).toBe(failed.gatewayUrl);
  });

  it("reopened after payment: shows Paid, offers no second payment, still returns to the shop", async () => {
    const { paymentId, gatewayUrl } = await createCheckout("order-e2e-reopen");
    mockServer.service.completePayment(paymentId);
    await page.goto(gatewayUrl);
    expect(await text("#status")).toBe("Paid");
    expect(await text("#paid-with")).toBe("Paid with 19.99 USDC on Base Sepolia");
    expect(await page.locator("#pay").isHidden()).toBe(true);
    expect(await page.locator("#fail").isHidden()).toBe(true);
    await expectRedirectAfterThreeSeconds(`${site.url}/success?payment_id=${paymentId}`);
  });

  it("unknown payment: a styled 404 that echoes the id as text only", async () => {
    const hostile = `pay_<img src=x onerror="window.__pwned=1">`;
    const response = await page.goto(`${mockServer.url}/portal/${encodeURIComponent(hostile)}`);
    expect(response?.status()).toBe(404);
    expect(await page.title()).toBe("Payment not found (mock)");
    expect(await text("#status")).toBe("We couldn't find this payment");
    expect(await text("#payment-id")).toBe(hostile);
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.getAttribute("link[rel=icon]", "href")).toBe("/favicon.ico");
    await screenshot("8-not-found");
  });
});
