import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMockService } from "merchant-payments/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  handleReturn,
  type Order,
  placeOrder,
  type ReturnUrls,
  settleOrder,
} from "../../examples/shared/checkout-flow.js";
import { type Orders, type OrdersLocation, openOrders } from "../../examples/shared/orders.js";
import { settleOrders } from "../../examples/worker.js";
import { testClient } from "../helpers/clients.js";

// The shop's orders in the embedded database, on disk in a temporary directory (so a restart can reopen it), or
// on the PostgreSQL server of SHOP_TEST_DATABASE_URL when set (the same SQL through `pg`). The service is the
// bundled mock, answering in process through its own fetch function.
const mock = createMockService({ pollInMs: 20 });
const client = testClient(mock, { fetch: mock.fetch });

let dir: string;
let location: OrdersLocation;
let orders: Orders;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "shop-orders-"));
  location = process.env.SHOP_TEST_DATABASE_URL
    ? { url: process.env.SHOP_TEST_DATABASE_URL }
    : { dataDir: join(dir, "db") };
  orders = await openOrders(location); // the first start of an embedded database takes a few seconds
}, 120_000);
afterAll(async () => {
  mock.reset(); // releases a status request the hang test below left held
  await orders?.close();
  await rm(dir, { recursive: true, force: true });
});

const urlsFor = (order: Order): ReturnUrls => ({
  successUrl: `https://shop.example/checkout/success?order=${order.id}`,
  errorUrl: `https://shop.example/checkout/error?order=${order.id}`,
});

/** The warehouse: how many times each order was shipped. It outlives the shop's restart, as a real one would. */
const shipments = new Map<string, number>();
const ship = (order: Order) => void shipments.set(order.id, (shipments.get(order.id) ?? 0) + 1);
const totalShipments = () => [...shipments.values()].reduce((sum, n) => sum + n, 0);

/** Places `n` orders through the checkout flow; returns them as stored, with their payments. */
async function placeOrders(n: number): Promise<Order[]> {
  const placed: Order[] = [];
  for (let i = 0; i < n; i++) {
    const { order } = await placeOrder(client, orders, { amount: "12.50", currency: "USD" }, urlsFor);
    placed.push((await orders.get(order.id)) as Order);
  }
  return placed;
}

/** The return URL the portal sends the buyer to (what `simulateBuyer` answers for a paid payment). */
const returnUrl = (order: Order) => `${urlsFor(order).successUrl}&payment_id=${order.paymentId}`;

/**
 * For every order at once, three racers: the buyer's return, a reload of it, and the polling worker (with the
 * order as it read it before the others ran). No waiting: each asks the service once.
 */
async function race(placed: readonly Order[]): Promise<void> {
  await Promise.all(
    placed.flatMap((order) => [
      handleReturn(client, orders, order.id, returnUrl(order), { waitMs: 0, onFulfil: ship }),
      handleReturn(client, orders, order.id, returnUrl(order), { waitMs: 0, onFulfil: ship }),
      settleOrder(client, orders, order, { onFulfil: ship }),
    ]),
  );
}

describe("examples/shared/orders: a shop that cannot fulfil twice", () => {
  const ORDERS = 50;
  const PAID_BEFORE_RESTART = 40;

  it(
    `races return, reload and worker on ${ORDERS} orders: each ships once, also across a restart`,
    {
      timeout: 120_000,
    },
    async () => {
      const placed = await placeOrders(ORDERS);
      const ids = placed.map((order) => order.id);
      expect(new Set(placed.map((order) => order.paymentId)).size).toBe(ORDERS);
      for (const order of placed.slice(0, PAID_BEFORE_RESTART)) {
        expect(mock.simulateBuyer(order.paymentId ?? "", { outcome: "success" })).toBe(returnUrl(order));
      }

      await race(placed);
      expect(totalShipments()).toBe(PAID_BEFORE_RESTART);
      expect([...shipments.values()].every((n) => n === 1)).toBe(true);
      expect(await orders.fulfilmentCount(ids)).toBe(PAID_BEFORE_RESTART);

      // The shop restarts: the database is closed and opened again from the same place.
      await orders.close();
      orders = await openOrders(location);
      const reopened = await Promise.all(ids.map((id) => orders.get(id)));
      expect(reopened.filter((order) => order?.state === "fulfilled")).toHaveLength(PAID_BEFORE_RESTART);

      // The last buyers pay after the restart, and every order is raced again.
      for (const order of placed.slice(PAID_BEFORE_RESTART)) {
        mock.simulateBuyer(order.paymentId ?? "", { outcome: "success" });
      }
      await race(placed);

      expect(shipments.size).toBe(ORDERS);
      expect([...shipments.values()].every((n) => n === 1)).toBe(true);
      expect(totalShipments()).toBe(ORDERS);
      expect(await orders.fulfilmentCount(ids)).toBe(ORDERS);
      for (const id of ids) expect((await orders.get(id))?.state).toBe("fulfilled");
    },
  );

  it("the fulfilments table refuses a second row for an order, whatever the code above it does", async () => {
    const [order] = await placeOrders(1);
    mock.simulateBuyer(order?.paymentId ?? "", { outcome: "success" });
    expect(await orders.fulfil(order?.id ?? "", order?.paymentId ?? "")).toBe(true);
    await expect(
      orders.db.query("INSERT INTO fulfilments (order_id, payment_id) VALUES ($1, $2)", [
        order?.id,
        order?.paymentId,
      ]),
    ).rejects.toThrow(/duplicate key|unique/i);
    expect(await orders.fulfilmentCount([order?.id ?? ""])).toBe(1);
  });

  it("never fulfils an order with another payment than its own", async () => {
    const [mine, other] = await placeOrders(2);
    mock.simulateBuyer(other?.paymentId ?? "", { outcome: "success" });
    expect(await orders.fulfil(mine?.id ?? "", other?.paymentId ?? "", ship)).toBe(false);
    expect((await orders.get(mine?.id ?? ""))?.state).toBe("awaiting_payment");
    expect(shipments.has(mine?.id ?? "")).toBe(false);
  });

  it("rolls a fulfilment back when shipping throws, so the next attempt ships", async () => {
    const [order] = await placeOrders(1);
    if (!order?.paymentId) throw new Error("no payment");
    mock.simulateBuyer(order.paymentId, { outcome: "success" });
    const failing = () => {
      throw new Error("warehouse down");
    };
    await expect(settleOrder(client, orders, order, { onFulfil: failing })).rejects.toThrow("warehouse down");
    expect((await orders.get(order.id))?.state).toBe("awaiting_payment");
    expect(await orders.fulfilmentCount([order.id])).toBe(0);

    expect(await settleOrder(client, orders, order, { onFulfil: ship })).toBe("fulfilled");
    expect(await settleOrder(client, orders, order, { onFulfil: ship })).toBe("already_fulfilled");
    expect(shipments.get(order.id)).toBe(1);
  });
});

describe("examples/shared handleReturn against a service that hangs", () => {
  it("shows 'still processing' once its short wait runs out, and leaves the order awaiting payment", async () => {
    const [order] = await placeOrders(1);
    const path = `/v1/merchant/payment/${order?.paymentId}/status`;
    // Every status request is held far longer than the client's 30 s timeout.
    const fault = mock.injectFault({ type: "latency", latencyMs: 600_000, rate: 1, path });
    try {
      const page = await handleReturn(client, orders, order?.id, returnUrl(order as Order), { waitMs: 300 });
      expect(page.status).toBe(202);
      expect((await orders.get(order?.id ?? ""))?.state).toBe("awaiting_payment");
    } finally {
      fault.remove();
    }
  });
});

describe("examples/worker settleOrders", () => {
  it("fulfils the paid orders, marks the failed one, and leaves the pending one for later", async () => {
    // Earlier tests' orders are settled already; these are the only ones awaiting payment.
    const [paid, failed, pending] = await placeOrders(3);
    mock.simulateBuyer(paid?.paymentId ?? "", { outcome: "success" });
    mock.simulateBuyer(failed?.paymentId ?? "", { outcome: "failure" });

    const results = await settleOrders(client, orders, { poll: false, concurrency: 2, onFulfil: ship });
    const outcomes = new Map(results.map((r) => [r.orderId, r.outcome]));
    expect(outcomes.get(paid?.id ?? "")).toBe("fulfilled");
    expect(outcomes.get(failed?.id ?? "")).toBe("unpaid");
    expect(outcomes.get(pending?.id ?? "")).toBe("waiting");
    expect((await orders.get(failed?.id ?? ""))?.state).toBe("payment_failed");
    expect((await orders.get(pending?.id ?? ""))?.state).toBe("awaiting_payment");
    expect(shipments.get(paid?.id ?? "")).toBe(1);

    // A return of the failed order later on does not undo anything, nor fulfil.
    const page = await handleReturn(client, orders, failed?.id, returnUrl(failed as Order), { waitMs: 0 });
    expect(page.status).toBe(402);
    expect(shipments.has(failed?.id ?? "")).toBe(false);
  });
});
