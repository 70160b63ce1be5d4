/**
 * The demo shop (`examples/shop/site.ts`) as an attack surface: its return URL needs no authentication, so a
 * stranger can hammer it. However many returns arrive for an unpaid order, at most one status call for that order
 * runs at a time (each would otherwise be a call, or a poll loop, under the merchant's key); a malformed path is a
 * 400, not a 500.
 */
import { MerchantPaymentsClient } from "merchant-payments";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Orders, openOrders } from "../../examples/shared/orders.js";
import { type Shop, startShop } from "../../examples/shop/site.js";

const RETURNS = 100;
let inFlight = 0;
let maxInFlight = 0;
let statusCalls = 0;
/** Holds every status answer until the test releases it. */
let release: () => void = () => {};
const held = new Promise<void>((resolve) => {
  release = resolve;
});

const client = new MerchantPaymentsClient({
  apiKey: "mock_test_sk_shop",
  baseUrl: "https://api.merchant-payments.test",
  merchantId: "mrch_shop",
  maxRetries: 0,
  fetch: async () => {
    statusCalls++;
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    await held;
    inFlight--;
    return Response.json({ status: "processing", isFinal: false, pollInMs: 1_000 });
  },
});

let orders: Orders;
let gets = 0;
let shop: Shop;

beforeAll(async () => {
  orders = await openOrders({ dataDir: "memory://" });
  // Counts the shop's reads of an order: each return reads it before anything else.
  const counted = Object.create(orders) as Orders;
  counted.get = (id) => {
    gets++;
    return orders.get(id);
  };
  shop = await startShop(client, counted, { returnWaitMs: 0 });
}, 120_000);
afterAll(async () => {
  release();
  await shop?.close();
  await orders?.close();
});

describe("the demo shop's return", () => {
  it(`${RETURNS} concurrent returns for one unpaid order start one status call, not ${RETURNS}`, async () => {
    const order = await orders.create({ amount: "12.50", currency: "USD" });
    await orders.recordCheckout(order.id, "pay_hammered", "https://portal.example/pay_hammered");
    const url = `${shop.url}/orders/${order.id}/success?payment_id=pay_hammered`;
    const pages = Array.from({ length: RETURNS }, () => fetch(url));
    for (const page of pages) page.catch(() => {}); // awaited below; a failed assertion must not leave them unhandled
    // Wait (bounded) until every return has reached the shop and read the order, and a status call is held. Each
    // return reads the order once on arrival, and a verification once more: past RETURNS + 1 reads, all are in.
    const waiting = () => (gets < RETURNS + 1 || inFlight < 1) && maxInFlight < 2;
    for (let turn = 0; waiting() && turn < 20_000; turn++) await new Promise((r) => setTimeout(r, 1));
    expect(maxInFlight).toBe(1);
    expect(gets).toBeGreaterThanOrEqual(RETURNS + 1);
    release();
    const statuses = (await Promise.all(pages)).map((page) => page.status);
    expect(statuses).toEqual(Array(RETURNS).fill(202));
    expect(maxInFlight).toBe(1);
    expect(statusCalls).toBeLessThan(RETURNS);
    // Once the first verification is over, the next return asks again (nothing is cached for later).
    const before = statusCalls;
    expect((await fetch(url)).status).toBe(202);
    expect(statusCalls).toBe(before + 1);
  }, 60_000);

  it.each(["/orders/%E0%A4%A/success", "/orders/%/error", "/orders/%ZZ/success?payment_id=pay_1"])(
    "%s answers 400, not 500",
    async (path) => {
      const res = await fetch(`${shop.url}${path}`);
      expect(res.status).toBe(400);
    },
  );

  it("a return for an unknown order is a 404, with no status call", async () => {
    const before = statusCalls;
    const res = await fetch(`${shop.url}/orders/ord_nope/success?payment_id=pay_1`);
    expect(res.status).toBe(404);
    expect(statusCalls).toBe(before);
  });
});
