/**
 * What a merchant copies must be as safe as the SDK: every example's return path (the shared `handleReturn`, the
 * Express app, the Hono app, the demo shop) and worker path (`settleOrder`, `settleOrders`) is driven with status
 * answers that contradict themselves or are not final (`isFinal` as "true", "false", 1, "no", null or missing; an
 * unknown, upper-case or look-alike status claiming to be final), read tolerantly (the default). None of them may
 * ship the order or mark it failed: the examples decide with the SDK's `isFulfillable` and `isFinalPaymentStatus`.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { MerchantPaymentsClient } from "merchant-payments";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp as createExpressApp } from "../../examples/express/server.js";
import { createApp as createHonoApp } from "../../examples/hono/app.js";
import { handleReturn, settleOrder } from "../../examples/shared/checkout-flow.js";
import { type Order, type Orders, openOrders } from "../../examples/shared/orders.js";
import { type Shop, startShop } from "../../examples/shop/site.js";
import { settleOrders } from "../../examples/worker.js";

const TERMINAL = ["succeeded", "failed", "expired", "cancelled"];

/** The status answer every status call gets in the current run. */
let answer: Record<string, unknown> = {};
const client = new MerchantPaymentsClient({
  apiKey: "mock_test_sk_contradictions",
  baseUrl: "https://api.merchant-payments.test",
  merchantId: "mrch_shop",
  responseValidation: "tolerant",
  maxRetries: 0,
  fetch: async (input) => {
    const path = new URL(String(input)).pathname;
    if (!path.endsWith("/status"))
      return Response.json({ message: "not here", code: "not_found" }, { status: 404 });
    return Response.json(answer);
  },
});

const shipped: string[] = [];
const onFulfil = (order: Order) => void shipped.push(order.id);
let orders: Orders;
let expressServer: Server;
let expressUrl: string;
let shop: Shop;
const hono = () =>
  createHonoApp(client, orders, { publicUrl: "https://shop.example", returnWaitMs: 0, onFulfil });

beforeAll(async () => {
  orders = await openOrders({ dataDir: "memory://" }); // embedded PGlite: created once for the file
  const app = createExpressApp(client, orders, { returnWaitMs: 0, onFulfil });
  expressServer = await new Promise<Server>((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => resolve(server));
  });
  expressUrl = `http://127.0.0.1:${(expressServer.address() as AddressInfo).port}`;
  shop = await startShop(client, orders, { returnWaitMs: 0, onFulfil });
}, 120_000);
afterAll(async () => {
  await new Promise((resolve) => expressServer?.close(resolve));
  await shop?.close();
  await orders?.close();
});

/** A status answer that is not "final and terminal": the only kind an example may act on. */
const contradictoryAnswer = fc
  .record({
    status: fc.oneof(
      fc.constantFrom(
        ...TERMINAL,
        "processing",
        "SUCCEEDED",
        "Succeeded",
        "\u0455ucceeded",
        "paid",
        "FAILED",
        "",
      ),
      fc.string({ maxLength: 12 }),
    ),
    isFinal: fc.constantFrom<unknown>(
      true,
      false,
      "true",
      "false",
      1,
      0,
      "no",
      "yes",
      null,
      undefined,
      {},
      [],
    ),
    pollInMs: fc.constantFrom<unknown>(null, 5, "5", undefined),
    info: fc.constantFrom<unknown>(undefined, { txId: "0xabc" }, { txId: 7 }),
  })
  .filter(({ status, isFinal }) => !(isFinal === true && TERMINAL.includes(status)))
  .map((fields) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)));

let paymentCount = 0;

/** An order awaiting payment, with its checkout payment recorded (no checkout call needed). */
async function pendingOrder(): Promise<Order> {
  const order = await orders.create({ amount: "12.50", currency: "USD" });
  const paymentId = `pay_contradiction_${++paymentCount}`;
  expect(await orders.recordCheckout(order.id, paymentId, `https://portal.example/${paymentId}`)).toBe(true);
  return { ...order, paymentId, gatewayUrl: `https://portal.example/${paymentId}` };
}

/** Each example's paths over one order; every path must leave it awaiting payment. */
async function driveEveryPath(order: Order): Promise<void> {
  const pay = `payment_id=${order.paymentId}`;
  const id = encodeURIComponent(order.id);
  await handleReturn(client, orders, order.id, `/checkout/success?${pay}`, { waitMs: 0, onFulfil });
  await fetch(`${expressUrl}/checkout/success?order=${id}&${pay}`);
  await fetch(`${expressUrl}/checkout/error?order=${id}&${pay}`);
  await hono().request(`/checkout/success?order=${id}&${pay}`);
  await fetch(`${shop.url}/orders/${id}/success?${pay}`);
  await settleOrder(client, orders, order, { onFulfil });
  // The worker polling to a (tiny) deadline: a contradiction is never final, so it times out.
  await settleOrder(client, orders, order, {
    onFulfil,
    wait: { maxWaitMs: 20, minIntervalMs: 5, maxIntervalMs: 5 },
  }).catch(() => "timeout");
  await settleOrders(client, orders, { poll: false, onFulfil, limit: 1_000 });
}

describe("examples never act on a contradictory or non-final status", () => {
  it("nothing ships and nothing is marked failed, on any return or worker path", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(contradictoryAnswer, async (generated) => {
        answer = generated;
        const order = await pendingOrder();
        n++;
        await driveEveryPath(order);
        expect((await orders.get(order.id))?.state, JSON.stringify(generated)).toBe("awaiting_payment");
        expect(shipped).toEqual([]);
        expect(await orders.fulfilmentCount()).toBe(0);
      }),
      { numRuns: 40, interruptAfterTimeLimit: 90_000 },
    );
    // Every order of every run is still awaiting payment.
    expect((await orders.awaitingPayment(1_000)).length).toBe(n);
  }, 120_000);

  it.each([
    ["succeeded", "false"],
    ["succeeded", 1],
    ["succeeded", "no"],
    ["failed", "false"],
    ["expired", "true"],
    ["cancelled", 1],
  ])("%s with isFinal %j: the worker neither ships nor marks the order", async (status, isFinal) => {
    answer = { status, isFinal, pollInMs: null, info: { txId: "0xabc" } };
    const order = await pendingOrder();
    expect(await settleOrder(client, orders, order, { onFulfil })).toBe("waiting");
    expect((await orders.get(order.id))?.state).toBe("awaiting_payment");
    expect(shipped).toEqual([]);
  });

  it("a real final answer still settles (the test can fail)", async () => {
    answer = { status: "failed", isFinal: true, pollInMs: null };
    const order = await pendingOrder();
    expect(await settleOrder(client, orders, order, { onFulfil })).toBe("unpaid");
    expect((await orders.get(order.id))?.state).toBe("payment_failed");
    answer = { status: "succeeded", isFinal: true, pollInMs: null, info: { txId: "0xabc" } };
    const paid = await pendingOrder();
    expect(await settleOrder(client, orders, paid, { onFulfil })).toBe("fulfilled");
    expect(shipped).toEqual([paid.id]);
  });
});
