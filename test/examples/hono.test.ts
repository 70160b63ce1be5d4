import { MerchantPaymentsClient } from "merchant-payments";
import { createMockService } from "merchant-payments/testing/msw";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createApp, type Order } from "../../examples/hono/app.js";
import { openOrders } from "../../examples/shared/orders.js";
import { testClient } from "../helpers/clients.js";
import { useMswServer } from "../helpers/msw.js";

// The service as MSW handlers (https://mock.merchant-payments.test); the Hono app is called in process.
const mock = createMockService({ pollInMs: 20 });
const _msw = useMswServer(...mock.handlers);
const fulfilled: string[] = [];
const client = testClient(mock);
// Embedded PGlite in memory: creating it takes a few seconds, so once for the file.
const orders = await openOrders({ dataDir: "memory://" });
const app = createApp(client, orders, {
  publicUrl: "https://shop.example", // never followed: the test calls the app with the return URL's path
  returnWaitMs: 300,
  onFulfil: (order) => void fulfilled.push(order.id),
});

afterEach(() => {
  vi.restoreAllMocks();
  mock.reset();
  fulfilled.length = 0;
});
afterAll(async () => {
  await orders.close();
});

async function placeOrder(body: unknown = { amount: "42", currency: "EUR" }) {
  const res = await app.request("/orders", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { res, payment: mock.payments.at(-1) };
}

/** Calls the app with the path and query of an absolute return URL. */
const visit = (url: string) => {
  const { pathname, search } = new URL(url);
  return app.request(`${pathname}${search}`);
};
const order = async (id: string) => (await (await app.request(`/orders/${id}`)).json()) as Order;

describe("examples/hono", () => {
  it("creates the checkout, redirects to the portal and fulfils the verified return", async () => {
    const { res, payment } = await placeOrder();
    if (!payment) throw new Error("no payment created");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(new RegExp(`^${mock.baseUrl}/.*${payment.id}`));
    expect(payment.amount).toEqual({ unit: "iso4217/EUR", value: "4200" });
    expect(payment.redirects?.successUrl).toBe(
      `https://shop.example/checkout/success?order=${encodeURIComponent(payment.referenceId)}`,
    );

    const back = mock.simulateBuyer(payment.id, { outcome: "success" }) ?? "";
    const page = await visit(back);
    expect(page.status).toBe(200);
    expect((await order(payment.referenceId)).state).toBe("fulfilled");
    await visit(back);
    expect(fulfilled).toEqual([payment.referenceId]);
  });

  it("refuses a forged return (missing, repeated or foreign payment_id)", async () => {
    const { payment } = await placeOrder();
    if (!payment) throw new Error("no payment created");
    const base = `/checkout/success?order=${payment.referenceId}`;
    for (const query of [
      "",
      `&payment_id=${payment.id}&payment_id=${payment.id}`,
      "&payment_id=pay_forged",
    ]) {
      expect((await app.request(`${base}${query}`)).status).toBe(400);
    }
    expect((await order(payment.referenceId)).state).toBe("awaiting_payment");
    expect(fulfilled).toEqual([]);
  });

  it("shows an expiry instead of fulfilling an expired payment", async () => {
    const { payment } = await placeOrder();
    if (!payment) throw new Error("no payment created");
    mock.expirePayment(payment.id);
    const res = await app.request(`/checkout/success?order=${payment.referenceId}&payment_id=${payment.id}`);
    expect(res.status).toBe(410);
    expect((await order(payment.referenceId)).state).toBe("payment_expired");
    expect(fulfilled).toEqual([]);
  });

  it("answers 502 when the service keeps failing, without creating a payment", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    mock.injectFault({ type: "serverError", status: 503, path: "/v1/merchant/payment", times: 5 });
    const quick = new MerchantPaymentsClient({
      apiKey: mock.keys.test,
      baseUrl: mock.baseUrl,
      merchantId: mock.merchantId,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
    });
    const res = await createApp(quick, orders, { publicUrl: "https://shop.example" }).request("/orders", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: "1", currency: "USD" }),
    });
    expect(res.status).toBe(502);
    expect(mock.payments).toEqual([]);
    expect(String(logged.mock.calls[0]?.[0])).not.toContain(mock.keys.test);
  });
});
