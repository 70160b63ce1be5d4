import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type MockServer, startMockServer } from "merchant-payments/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp, type Order } from "../../examples/express/server.js";
import { type Orders, openOrders } from "../../examples/shared/orders.js";
import { testClient } from "../helpers/clients.js";

// Both sides over real HTTP on 127.0.0.1: the mock service (a loopback baseUrl, so http return URLs are accepted)
// and the shop's Express app on a free port.
let mock: MockServer;
let orders: Orders;
let server: Server;
let shop: string;
const fulfilled: Order[] = [];
/** The `gatewayUrl`s the service answered to checkout creations, as the SDK received them. */
const gatewayUrls: string[] = [];

/** The global fetch, noting each checkout creation's answer on the way. */
const recordingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (new URL(String(input instanceof Request ? input.url : input)).pathname === "/v1/merchant/payment") {
    gatewayUrls.push(((await res.clone().json()) as { gatewayUrl: string }).gatewayUrl);
  }
  return res;
};

beforeAll(async () => {
  mock = await startMockServer({ pollInMs: 20 });
  orders = await openOrders({ dataDir: "memory://" }); // embedded PGlite: creating it takes a few seconds
  const client = testClient(mock.service, {
    fetch: recordingFetch,
    retry: { baseDelayMs: 1, maxDelayMs: 5 }, // keep the SDK's retries fast
  });
  const app = createApp(client, orders, {
    returnWaitMs: 300,
    onFulfil: (order) => void fulfilled.push(order),
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  shop = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);
afterEach(() => {
  fulfilled.length = 0;
  mock.service.clearFaults();
  vi.restoreAllMocks();
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await mock?.close();
  await orders?.close();
});

/** Places an order and returns the redirect to the portal. */
async function placeOrder(amount = "19.99", currency = "USD") {
  const res = await fetch(`${shop}/orders`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ amount, currency }),
    redirect: "manual",
  });
  expect(res.status).toBe(303);
  const location = res.headers.get("location") ?? "";
  const payment = mock.service.payments.at(-1);
  if (!payment) throw new Error("no payment was created");
  return { location, payment };
}

const order = async (id: string) => (await (await fetch(`${shop}/orders/${id}`)).json()) as Order;

describe("examples/express", () => {
  it("redirects to the portal, then fulfils the verified return exactly once", async () => {
    const { location, payment } = await placeOrder("19.99", "USD");
    expect(location).toBe(gatewayUrls.at(-1));
    expect(payment.amount).toEqual({ unit: "iso4217/USD", value: "1999" });
    const orderId = payment.referenceId;
    expect((await order(orderId)).paymentId).toBe(payment.id);

    // The buyer pays on the portal, which sends them back to the shop's success URL.
    const returnUrl = mock.service.simulateBuyer(payment.id, { outcome: "success" });
    expect(returnUrl).toBe(`${shop}/checkout/success?order=${orderId}&payment_id=${payment.id}`);
    const res = await fetch(returnUrl ?? "");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("is paid");
    expect((await order(orderId)).state).toBe("fulfilled");

    // Reloading the return page does not ship twice.
    expect((await fetch(returnUrl ?? "")).status).toBe(200);
    expect(fulfilled.map((o) => o.id)).toEqual([orderId]);
  });

  it("sends the buyer to the portal of the order's payment", async () => {
    const { location, payment } = await placeOrder();
    const created = mock.service.requests.filter((r) => r.path === "/v1/merchant/payment").at(-1);
    expect(created?.body).toMatchObject({ referenceId: payment.referenceId });
    // The key was stored with the order before the checkout was created.
    expect(created?.headers["idempotency-key"]).toBe((await order(payment.referenceId)).idempotencyKey);
    const portal = await fetch(location);
    expect(portal.status).toBe(200);
    expect(await portal.text()).toContain(payment.id);
  });

  it("does not fulfil a forged return carrying another payment's id", async () => {
    const mine = await placeOrder();
    const other = await placeOrder();
    mock.service.simulateBuyer(other.payment.id, { outcome: "success" }); // someone else's paid payment
    const forged = `${shop}/checkout/success?order=${mine.payment.referenceId}&payment_id=${other.payment.id}`;
    const res = await fetch(forged);
    expect(res.status).toBe(400);
    expect((await order(mine.payment.referenceId)).state).toBe("awaiting_payment");
    expect(fulfilled).toEqual([]);
  });

  it("does not fulfil a typed-in success URL of an unpaid payment", async () => {
    const { payment } = await placeOrder();
    const typed = `${shop}/checkout/success?order=${payment.referenceId}&payment_id=${payment.id}`;
    const res = await fetch(typed);
    expect(res.status).toBe(202); // still requires_action after the short wait: "still processing"
    expect((await order(payment.referenceId)).state).toBe("awaiting_payment");
    expect(fulfilled).toEqual([]);
  });

  it("does not fulfil when the buyer lands on the success URL of a failed payment", async () => {
    const { payment } = await placeOrder();
    const errorUrl = mock.service.simulateBuyer(payment.id, { outcome: "failure" }) ?? "";
    expect(errorUrl).toContain("/checkout/error?");
    const res = await fetch(errorUrl.replace("/checkout/error", "/checkout/success"));
    expect(res.status).toBe(402);
    expect((await order(payment.referenceId)).state).toBe("payment_failed");
    expect(fulfilled).toEqual([]);
  });

  it("answers 400 for an invalid amount, sending nothing to the service", async () => {
    const before = mock.service.requests.length;
    const res = await fetch(`${shop}/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: "1.999", currency: "USD" }),
      redirect: "manual",
    });
    expect(res.status).toBe(400);
    expect(mock.service.requests.length).toBe(before);
  });

  it("recovers a lost checkout answer with the key stored with the order: one payment, not two", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const before = mock.service.payments.length;
    // The service creates the payment, then every answer is lost (the SDK's own retries included).
    mock.service.injectFault({
      type: "drop",
      method: "POST",
      path: "/v1/merchant/payment",
      after: true,
      times: 10,
    });
    const lost = await fetch(`${shop}/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: "7.00", currency: "USD" }),
      redirect: "manual",
    });
    expect(lost.status).toBe(502);
    const { retry } = (await lost.json()) as { retry: string };
    const payment = mock.service.payments.at(-1);
    expect(mock.service.payments.length).toBe(before + 1);
    expect(retry).toBe(`/orders/${payment?.referenceId}/checkout`);
    expect((await order(payment?.referenceId ?? "")).paymentId).toBeNull(); // the shop never saw the answer

    mock.service.clearFaults();
    const again = await fetch(`${shop}${retry}`, { method: "POST", redirect: "manual" });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toContain(payment?.id);
    expect(mock.service.payments.length).toBe(before + 1); // replayed by the stored key, not created again
    expect((await order(payment?.referenceId ?? "")).paymentId).toBe(payment?.id);
  });
});
