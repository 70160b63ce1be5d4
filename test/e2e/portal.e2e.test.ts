/**
 * The mock's checkout portal in a real headless Chromium (Debian's `/usr/bin/chromium`, driven by
 * `playwright-core`): the SDK creates the checkout, the buyer pays (or fails) on the portal page, the
 * portal counts down and redirects to a tiny merchant site on 127.0.0.1, and the SDK verifies the
 * landed URL server-side.
 *
 * Skipped when Chromium is missing, unless `REQUIRE_BROWSER=1` (CI), where a missing browser fails.
 * Install it with `scripts/ensure-chromium.sh`.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MerchantPaymentsClient, money } from "../../src/index.js";
import { DEFAULT_TEST_ASSET, type MockServer, startMockServer } from "../../src/testing/index.js";

const CHROMIUM = "/usr/bin/chromium";
const REQUIRE_BROWSER = process.env.REQUIRE_BROWSER === "1";
const HAS_BROWSER = existsSync(CHROMIUM);
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
];
/** Every wait of this file is bounded by this (the portal redirects after a 3-second countdown). */
const WAIT_MS = 15_000;
/** The redirect must happen within this after the click. */
const REDIRECT_WITHIN_MS = 6_000;
const SCREENSHOT = resolve(".tmp/portal.png");

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

describe.skipIf(!HAS_BROWSER && !REQUIRE_BROWSER)("checkout portal in headless Chromium", () => {
  const MERCHANT_NAME = "Corner Bakery & Sons";
  let mockServer: MockServer;
  let site: Awaited<ReturnType<typeof startMerchantSite>>;
  let context: BrowserContext;
  let userDataDir: string;
  let client: MerchantPaymentsClient;
  let page: Page;

  beforeAll(async () => {
    if (!HAS_BROWSER) {
      throw new Error(
        `REQUIRE_BROWSER=1 but ${CHROMIUM} is missing: install it with scripts/ensure-chromium.sh (apt-get install chromium).`,
      );
    }
    mockServer = await startMockServer();
    site = await startMerchantSite();
    userDataDir = await mkdtemp(join(tmpdir(), "mp-e2e-chromium-"));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: WAIT_MS,
      viewport: { width: 800, height: 720 },
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
  });

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
  });

  afterEach(async () => {
    await page?.close();
  });

  async function createCheckout(referenceId: string) {
    return client.checkout.create({
      referenceId,
      amount: money("42.50", "USD"),
      successUrl: `${site.url}/success`,
      errorUrl: `${site.url}/error`,
    });
  }

  /** Opens the portal and checks what the buyer sees before paying. */
  async function openPortal(gatewayUrl: string, referenceId: string): Promise<void> {
    const response = await page.goto(gatewayUrl, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe(`Pay ${MERCHANT_NAME} (mock)`);
    expect(await page.locator("#merchant-name").textContent()).toBe(MERCHANT_NAME);
    expect(await page.locator("#amount").textContent()).toBe("42.50 USD");
    expect(await page.locator("#reference").textContent()).toBe(referenceId);
    expect(await page.locator("#status").textContent()).toBe("requires_action");
    expect(await page.locator("#pay").isEnabled()).toBe(true);
    expect(await page.locator("#countdown").isHidden()).toBe(true);
  }

  it("pays: countdown, redirect to /success?payment_id=…, verifyReturn says fulfil", async () => {
    const { paymentId, gatewayUrl } = await createCheckout("order-e2e-pay");
    expect(gatewayUrl).toBe(`${mockServer.url}/portal/${paymentId}`);
    await openPortal(gatewayUrl, "order-e2e-pay");
    await mkdir(resolve(".tmp"), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    const clickedAt = Date.now();
    await page.locator("#pay").click();
    await page.locator("#countdown").waitFor({ state: "visible" });
    expect(await page.locator("#countdown").textContent()).toMatch(/^Redirecting in [0-3]…$/);
    expect(await page.locator("#result").textContent()).toBe("Payment successful.");
    expect(await page.locator("#status").textContent()).toBe("succeeded");
    expect(await page.locator("#pay").isDisabled()).toBe(true);
    await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, "-countdown.png"), fullPage: true });

    const landing = `${site.url}/success?payment_id=${paymentId}`;
    await page.waitForURL(landing, { timeout: REDIRECT_WITHIN_MS });
    const elapsed = Date.now() - clickedAt;
    expect(elapsed).toBeGreaterThanOrEqual(2_500); // the 3-second countdown ran
    expect(await page.locator("#landing").textContent()).toBe("Thank you");
    expect(site.hits).toContain(`/success?payment_id=${paymentId}`);

    const landedUrl = page.url();
    expect(new URL(landedUrl).searchParams.getAll("payment_id")).toEqual([paymentId]);
    const outcome = await client.checkout.verifyReturn({ url: landedUrl, expectedPaymentId: paymentId });
    expect(outcome).toMatchObject({ paymentId, fulfil: true, next: "fulfil" });
    expect(outcome.status).toMatchObject({
      status: "succeeded",
      isFinal: true,
      info: { txId: `test:${paymentId}` },
    });
  });

  it("fails: redirect to /error?payment_id=…, verifyReturn says show_error", async () => {
    const { paymentId, gatewayUrl } = await createCheckout("order-e2e-fail");
    await openPortal(gatewayUrl, "order-e2e-fail");

    await page.locator("#fail").click();
    await page.locator("#countdown").waitFor({ state: "visible" });
    expect(await page.locator("#result").textContent()).toBe("Payment failed (failed).");

    await page.waitForURL(`${site.url}/error?payment_id=${paymentId}`, { timeout: REDIRECT_WITHIN_MS });
    expect(await page.locator("#landing").textContent()).toBe("Payment failed");

    const outcome = await client.checkout.verifyReturn({ url: page.url(), expectedPaymentId: paymentId });
    expect(outcome).toMatchObject({ paymentId, fulfil: false, next: "show_error" });
    expect(outcome.status).toEqual({ status: "failed", isFinal: true, pollInMs: null });
  });

  it("without redirects: shows the generic success view and stays on the portal", async () => {
    const { paymentId, gatewayUrl } = await client.checkout.create({
      referenceId: "order-e2e-generic",
      amount: money("42.50", "USD"),
      redirects: false,
    });
    await openPortal(gatewayUrl, "order-e2e-generic");
    const hitsBefore = site.hits.length;

    await page.locator("#pay").click();
    await page
      .locator("#result")
      .filter({ hasText: "Payment successful. You can close this page." })
      .waitFor();
    // Longer than the 3-second countdown a redirect would have used.
    await page.waitForTimeout(3_500);
    expect(page.url()).toBe(gatewayUrl);
    expect(await page.locator("#countdown").isHidden()).toBe(true);
    expect(await page.locator("#status").textContent()).toBe("succeeded");
    expect(site.hits.length).toBe(hitsBefore);
    expect((await client.checkout.status(paymentId)).status).toBe("succeeded");
  });

  it("shows a final payment as such when the portal is reopened (no second payment possible)", async () => {
    const { paymentId, gatewayUrl } = await createCheckout("order-e2e-reopen");
    mockServer.service.completePayment(paymentId);
    await page.goto(gatewayUrl);
    expect(await page.locator("#status").textContent()).toBe("succeeded");
    expect(await page.locator("#pay").isDisabled()).toBe(true);
    expect(await page.locator("#fail").isDisabled()).toBe(true);
    // A finished payment still sends the buyer back to the merchant.
    await page.waitForURL(`${site.url}/success?payment_id=${paymentId}`, { timeout: REDIRECT_WITHIN_MS });
  });
});
