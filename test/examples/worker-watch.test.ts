/**
 * One settlement worker in this process (`runWatchWorker`) on the payment-watch queue of a real PostgreSQL server
 * and the mock service: a watch that runs out is handed on, never dropped; `Retry-After` slows the watch down
 * and loses nothing. No assertion is on elapsed time: the only time read is the mock's log of when each call
 * came, and only as a lower bound (a watch never calls again before the `Retry-After` it was given).
 */
import { afterEach, describe, expect, it } from "vitest";
import { openOrders } from "../../examples/shared/orders.js";
import type { WatchJob } from "../../examples/shared/watch-queue.js";
import {
  runWatchWorker,
  type WatchEvent,
  type WatchWorkerOptions,
  type WatchWorkerStats,
} from "../../examples/worker/watch-worker.js";
import {
  fulfilments,
  jobStates,
  liveJobs,
  openShop,
  placeOrders,
  type Shop,
  TRACE_HEADER,
  until,
  watchesOf,
} from "./worker-harness.js";

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
}, 60_000);

/** Runs one worker in this process until `stop()`, which resolves with its stats. */
function runWorker(current: Shop, watchMs: number, options: WatchWorkerOptions = {}) {
  const shutdown = new AbortController();
  const run = runWatchWorker(current.client, current.orders, {
    ...options,
    signal: shutdown.signal,
    watchMs,
    fetchIntervalMs: 50,
    traceHeader: TRACE_HEADER,
    name: "in-process",
  });
  return {
    stop: async (): Promise<WatchWorkerStats> => {
      shutdown.abort();
      return run;
    },
  };
}

describe("a settlement worker's watches (real PostgreSQL)", () => {
  it("hands on a watch that ran out, paced by pollInMs: the payment is watched again and fulfilled once", async () => {
    shop = await openShop(10);
    const current = shop;
    const ids = (await placeOrders(current, 2)).map((order) => order.paymentId!);
    const worker = runWorker(current, 300);
    const watchesPer = (id: string) =>
      watchesOf(current.mock).watches.filter((w) => w.paymentId === id).length;
    await until(() => ids.every((id) => watchesPer(id) >= 3), "three watches of each payment");
    for (const id of ids) current.mock.service.completePayment(id);
    await until(async () => (await fulfilments(current.orders)).fulfilled === 2, "both orders fulfilled");
    const stats = await worker.stop();

    expect(stats.requeued).toBeGreaterThanOrEqual(4);
    expect(stats.fulfilled).toBe(2);
    // The next watch polls when the last one would have: never sooner than the interval (pollInMs 50, raised to
    // the SDK's minIntervalMs of 250 ms), across hand-ons too.
    for (const id of ids) {
      const times = current.mock.service.requests
        .filter((r) => r.path.endsWith(`/${id}/status`))
        .map((r) => r.time);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(250);
    }
    expect(watchesOf(current.mock).overlapping).toEqual([]);
    expect(await fulfilments(current.orders)).toEqual({ fulfilled: 2, rows: 2 });
    // Every job ended completed: none failed, none left behind.
    expect(await jobStates(current.orders)).toEqual({ completed: expect.any(Number) });
  }, 90_000);

  it("waits out rate_limited answers as long as their Retry-After says, and still fulfils the order", async () => {
    shop = await openShop(10);
    const current = shop;
    const [id] = (await placeOrders(current, 1)).map((order) => order.paymentId!);
    const fault = current.mock.service.injectFault({
      type: "rateLimit",
      path: "/v1/merchant/payment/*/status",
      retryAfterSeconds: 1,
      times: 3,
    });
    const worker = runWorker(current, 2500);
    await until(() => fault.hits === 3, "three rate_limited answers");
    current.mock.service.completePayment(id!);
    await until(async () => (await fulfilments(current.orders)).fulfilled === 1, "the order fulfilled");
    const stats = await worker.stop();

    const calls = current.mock.service.requests.filter((r) => r.path.endsWith(`/${id}/status`));
    // Within one watch, the call after a 429 waits its Retry-After (the transport's retries, then the watch's own
    // wait). A watch that runs out while waiting hands the payment on: the next watch asks again (and is told again).
    const waited = calls.flatMap((call, i) => {
      const next = calls[i + 1];
      return call.status === 429 && next?.headers[TRACE_HEADER] === call.headers[TRACE_HEADER]
        ? [next!.time - call.time]
        : [];
    });
    expect(calls.filter((call) => call.status === 429)).toHaveLength(3);
    expect(waited.length).toBeGreaterThanOrEqual(2);
    for (const ms of waited) expect(ms).toBeGreaterThanOrEqual(1000);
    expect(stats).toMatchObject({ fulfilled: 1, error: 0 });
    expect(await fulfilments(current.orders)).toEqual({ fulfilled: 1, rows: 1 });
  }, 90_000);

  it("stops watching a payment whose claim it lost, and leaves the job to whoever holds it", async () => {
    shop = await openShop(10);
    const current = shop;
    const [kept, taken] = await placeOrders(current, 2);
    const events: WatchEvent[] = [];
    const worker = runWorker(current, 60_000, { heartbeatMs: 100, onJob: (event) => events.push(event) });
    await until(() => watchesOf(current.mock).watches.length === 2, "both payments watched");
    // Another holder takes the claim on one job (as a supervisor does past the lease): its attempt is settled
    // behind this worker's back, so the next heartbeat finds it gone.
    const [job] = (await liveJobs(current.orders)).filter((j) => j.orderId === taken!.id);
    const attempt = {
      id: job!.id,
      retryCount: job!.attempt,
      data: { orderId: taken!.id, paymentId: taken!.paymentId! },
    };
    expect(await current.orders.watches!.done(attempt as WatchJob)).toBe(true);
    await until(() => events.some((event) => event.outcome === "lost"), "the lost claim noticed");
    const callsOf = (order: typeof kept) =>
      current.mock.service.requests.filter((r) => r.path.endsWith(`/${order!.paymentId}/status`)).length;
    // A call already on the wire when the watch stopped may still reach the mock: count from the kept payment's
    // next call on. From then, the kept payment is polled on (three more calls), the lost one never again.
    const keptBefore = callsOf(kept);
    await until(() => callsOf(kept) > keptBefore, "the kept payment polled again");
    const takenCalls = callsOf(taken);
    const keptCalls = callsOf(kept);
    await until(() => callsOf(kept) >= keptCalls + 3, "the kept payment polled on");
    expect(callsOf(taken)).toBe(takenCalls);
    current.mock.service.completePayment(kept!.paymentId!);
    await until(async () => (await fulfilments(current.orders)).fulfilled === 1, "the kept order fulfilled");
    const stats = await worker.stop();
    expect(stats).toMatchObject({ lost: 1, fulfilled: 1, handed_back: 0, error: 0 });
    expect(events.find((event) => event.outcome === "lost")?.orderId).toBe(taken!.id);
  }, 90_000);

  it("ends the jobs of orders settled, gone or paid by another payment without a call, and watches the rest", async () => {
    shop = await openShop(10);
    const current = shop;
    const [settled, moved, watched] = await placeOrders(current, 3);
    // Settled by the buyer's return before any worker looked; re-pointed at another payment; never stored at all.
    await current.orders.fulfil(settled!.id, settled!.paymentId!);
    await current.orders.db.query("UPDATE orders SET payment_id = 'pay_other' WHERE id = $1", [moved!.id]);
    await current.orders.watches!.enqueue({ orderId: "ord_missing", paymentId: "pay_missing" });
    const events: WatchEvent[] = [];
    const worker = runWorker(current, 60_000, { onJob: (event) => events.push(event) });
    await until(() => events.length === 3, "three jobs ended");
    current.mock.service.completePayment(watched!.paymentId!);
    await until(
      async () => (await fulfilments(current.orders)).fulfilled === 2,
      "the watched order fulfilled",
    );
    const stats = await worker.stop();

    expect(stats).toMatchObject({ gone: 3, fulfilled: 1, error: 0 });
    const statusCalls = current.mock.service.requests.filter((r) => r.path.endsWith("/status"));
    expect(new Set(statusCalls.map((r) => r.path.split("/").at(-2)))).toEqual(new Set([watched!.paymentId]));
    expect(await fulfilments(current.orders)).toEqual({ fulfilled: 2, rows: 2 });
  }, 90_000);

  it("watches each payment on its own when the orders of a batch cannot be read at once", async () => {
    shop = await openShop(10);
    const current = shop;
    const [first, second] = await placeOrders(current, 2);
    // The batch lookup fails (a database hiccup); each watch then reads its own order.
    const orders = Object.create(current.orders) as typeof current.orders;
    orders.getMany = () => Promise.reject(new Error("connection reset"));
    const shutdown = new AbortController();
    const run = runWatchWorker(current.client, orders, {
      signal: shutdown.signal,
      fetchIntervalMs: 50,
      traceHeader: TRACE_HEADER,
    });
    await until(() => watchesOf(current.mock).watches.length === 2, "both payments watched");
    for (const order of [first, second]) current.mock.service.completePayment(order!.paymentId!);
    await until(async () => (await fulfilments(current.orders)).fulfilled === 2, "both orders fulfilled");
    shutdown.abort();
    expect(await run).toMatchObject({ fulfilled: 2, error: 0 });
  }, 90_000);

  it("refuses a watch as long as the queue's longest hold, and a lease pg-boss cannot keep", async () => {
    shop = await openShop(10, { maxWatchSeconds: 20 });
    await expect(runWatchWorker(shop.client, shop.orders, { watchMs: 20_000 })).rejects.toThrow(RangeError);
    await expect(openOrders({ url: shop.databaseUrl, watches: { leaseSeconds: 5 } })).rejects.toThrow(
      /leaseSeconds must be a whole number of seconds, 10 or more/,
    );
  }, 60_000);
});
