/**
 * Testing your checkout integration with `merchant-payments/testing`, in your own vitest suite.
 *
 * The mock is a faithful, stateful, in-memory service: your app talks to it through the real SDK (MSW intercepts
 * `fetch`), and the test drives each payment the way a buyer or the chain would (`simulateBuyer`, `completePayment`,
 * `markProcessing`, `advanceTime`, `injectFault`), then asserts what your app did. No network, no account.
 *
 * Here "your app" is the Hono example (`examples/hono/app.ts`); with Express, listen on port 0 and `fetch` it.
 *
 * ```sh
 * npm install -D vitest msw
 * npx vitest run examples/testing
 * ```
 */
import { MerchantPaymentsClient } from "merchant-payments";
import { createMockService } from "merchant-payments/testing/msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../hono/app.js";
import { openOrders } from "../shared/orders.js";

// 1. One mock for the file. Seed it with your own ids and keys if your config expects them; the default seed has
//    an account (`mock.keys`) with a test merchant (`mock.merchantId`) that has a USDC settlement.
const mock = createMockService();
const server = setupServer(...mock.handlers);

// 2. Your app, with a client pointed at the mock. In your code the client probably reads MERCHANT_PAYMENTS_* env
//    vars: set them to these values instead (`vi.stubEnv`).
const client = new MerchantPaymentsClient({
  apiKey: mock.keys.test,
  baseUrl: mock.baseUrl, // https://mock.merchant-payments.test, answered by MSW
  merchantId: mock.merchantId,
  retry: { baseDelayMs: 1, maxDelayMs: 5 }, // keep retries fast in tests
});
const shipped: string[] = [];
// Your app's database: here the orders module's embedded PGlite, in memory (created once: it takes seconds).
const orders = await openOrders({ dataDir: "memory://" });
const app = createApp(client, orders, {
  publicUrl: "https://shop.example",
  returnWaitMs: 2_000,
  onFulfil: (order) => void shipped.push(order.id),
});

// 3. Fail on any request the mock does not answer (msw 2 names the option onUnhandledRequest); start every test
// from the seeded state.
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  mock.reset(); // payments, faults, request log and clock back to the seed (same keys and ids)
  shipped.length = 0;
});
afterAll(async () => {
  server.close();
  await orders.close();
});

/** Places an order through the app and returns the payment the mock recorded for it. */
async function checkout(amount = "25.00") {
  const res = await app.request("/orders", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ amount, currency: "USD" }),
  });
  expect(res.status).toBe(303);
  const payment = mock.payments.at(-1);
  if (!payment) throw new Error("the app created no payment");
  return payment;
}

/** The buyer's browser following a return URL: call the app with its path and query. */
function follow(url: string | null) {
  if (!url) throw new Error("redirects are disabled for this payment");
  const { pathname, search } = new URL(url);
  return app.request(pathname + search);
}

describe("checkout integration", () => {
  it("sends what you expect to the service", async () => {
    const payment = await checkout("25.00");
    expect(payment).toMatchObject({ flow: "checkout", amount: { unit: "iso4217/USD", value: "2500" } });
    const [request] = mock.requests; // the request log (the Api-Key header is redacted)
    expect(request).toMatchObject({ method: "POST", path: "/v1/merchant/payment", status: 201 });
    expect(request?.headers["merchant-id"]).toBe(mock.merchantId);
  });

  it("ships the order when the buyer pays", async () => {
    const payment = await checkout();
    // simulateBuyer walks the portal (wallet action, signature, processing, succeeded) and returns the redirect.
    const res = await follow(mock.simulateBuyer(payment.id, { outcome: "success" }));
    expect(res.status).toBe(200);
    expect(shipped).toEqual([payment.referenceId]);
  });

  it("does not ship when the payment fails, whatever URL the buyer lands on", async () => {
    const payment = await checkout();
    const errorUrl = mock.simulateBuyer(payment.id, { outcome: "failure" });
    expect((await follow(errorUrl)).status).toBe(402);
    expect((await follow(errorUrl?.replace("/checkout/error", "/checkout/success") ?? null)).status).toBe(
      402,
    );
    expect(shipped).toEqual([]);
  });

  it("waits for a payment that is still confirming when the buyer returns", async () => {
    const payment = await checkout();
    mock.markProcessing(payment.id); // submitted on-chain, not confirmed yet
    // Confirmed while the return page waits: on its second status poll (the first one saw "processing"). MSW's
    // life-cycle events say when a request arrives, so nothing here races a timer.
    let polls = 0;
    const confirmOnSecondPoll = ({ request }: { request: Request }) => {
      if (request.url.endsWith(`/${payment.id}/status`) && ++polls === 2) mock.completePayment(payment.id);
    };
    server.events.on("request:start", confirmOnSecondPoll);
    const res = await follow(
      `https://shop.example/checkout/success?order=${payment.referenceId}&payment_id=${payment.id}`,
    );
    server.events.removeListener("request:start", confirmOnSecondPoll);
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(res.status).toBe(200);
    expect(shipped).toEqual([payment.referenceId]);
  });

  it("shows an expiry message once the payment window has passed", async () => {
    const payment = await checkout();
    mock.advanceTime(16 * 60_000); // the mock's payments expire after 15 minutes of its clock
    const res = await app.request(`/checkout/success?order=${payment.referenceId}&payment_id=${payment.id}`);
    expect(res.status).toBe(410);
    expect(shipped).toEqual([]);
  });

  it("survives a rate-limited service (the SDK retries)", async () => {
    mock.injectFault({ type: "rateLimit", retryAfterSeconds: 0, path: "/v1/merchant/payment", times: 1 });
    const payment = await checkout();
    expect(mock.requests.map((r) => r.status)).toEqual([429, 201]);
    expect(payment.status).toBe("requires_action");
  });
});
