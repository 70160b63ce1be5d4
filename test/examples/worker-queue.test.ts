/**
 * The settlement workers on the payment-watch queue, against a real PostgreSQL server (the `postgres` project:
 * `scripts/postgres.sh`) and the mock service on 127.0.0.1, with worker processes as merchants run them. No
 * assertion is on time: each wait is a bounded loop on a condition; the leases are short only so that the
 * takeover tests finish soon.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  fulfilments,
  jobStates,
  liveJobs,
  openShop,
  placeOrders,
  type Shop,
  startWorker,
  stopWorker,
  until,
  type WorkerProcess,
  watchesOf,
} from "./worker-harness.js";

let shop: Shop;
let workers: WorkerProcess[] = [];

beforeEach(async () => {
  workers = [];
}, 60_000);
afterEach(async () => {
  for (const worker of workers) {
    if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
  }
  await Promise.all(workers.map((worker) => worker.exited));
  await shop?.close();
}, 60_000);

async function start(name: string, env: Record<string, string> = {}): Promise<WorkerProcess> {
  const worker = await startWorker(shop, name, env);
  workers.push(worker);
  return worker;
}

/** How many orders the workers shipped (each worker logs `<order>: fulfilled` for the fulfilments it made). */
const shipped = () =>
  workers.reduce((n, worker) => n + (worker.output().match(/: fulfilled$/gm)?.length ?? 0), 0);

/** Every payment has been watched by at least one worker (it has a traced status call). */
const allWatched = (paymentIds: string[]) => () => {
  const watched = new Set(watchesOf(shop.mock).watches.map((watch) => watch.paymentId));
  return paymentIds.every((id) => watched.has(id));
};
const allFulfilled = (n: number) => async () => (await fulfilments(shop.orders)).fulfilled === n;

describe("settlement workers on the payment-watch queue (real PostgreSQL)", () => {
  it("enqueues each checkout's watch with the order, once", async () => {
    shop = await openShop(30);
    const [order] = await placeOrders(shop, 1);
    expect(await jobStates(shop.orders)).toEqual({ created: 1 });
    // A replayed checkout (the same payment recorded again) adds no second watch.
    expect(await shop.orders.recordCheckout(order!.id, order!.paymentId!, order!.gatewayUrl!)).toBe(true);
    expect(await jobStates(shop.orders)).toEqual({ created: 1 });
  }, 60_000);

  it.each([2, 3])(
    "%i workers share the payments, each watched by one worker at a time, each order fulfilled once",
    async (n) => {
      shop = await openShop(10);
      const orders = await placeOrders(shop, 12);
      const ids = orders.map((order) => order.paymentId!);
      // Watches of 1 s under a 10 s lease (room for a slow machine): each payment changes hands several times
      // before it succeeds. The capacities add up to half the payments: between its watches a payment waits out
      // pollInMs (a second, rounded up), so workers that could hold every payment together would not need the last
      // one started (its polls can fall, round after round, just before the others hand their payments on). With
      // half, the workers started before it hold at most (n - 1) × capacity, fewer than half, and it finds some free.
      const env = { LEASE_SECONDS: "10", WATCH_MS: "1000", WORKER_CAPACITY: String(ids.length / (2 * n)) };
      for (let i = 0; i < n; i++) await start(`w${i + 1}`, env);
      await until(allWatched(ids), "every payment watched");
      // Then a few more rounds, with every worker at work (the last one started while the others ran).
      const rounds = watchesOf(shop.mock).watches.length + 2 * ids.length;
      const everyWorker = () => new Set(watchesOf(shop.mock).watches.map((watch) => watch.worker)).size === n;
      await until(
        () => everyWorker() && watchesOf(shop.mock).watches.length >= rounds,
        "every worker at work",
        () =>
          `${watchesOf(shop.mock).watches.length} of ${rounds} watches, by ${[...new Set(watchesOf(shop.mock).watches.map((w) => w.worker))].join(", ")}\n${workers.map((w) => `${w.name}: ${w.output()}`).join("\n")}`,
      );
      for (const id of ids) shop.mock.service.completePayment(id);
      await until(allFulfilled(ids.length), "every order fulfilled");

      const { watches, overlapping } = watchesOf(shop.mock);
      expect(overlapping).toEqual([]);
      expect(new Set(watches.map((watch) => watch.worker)).size).toBe(n);
      expect(await fulfilments(shop.orders)).toEqual({ fulfilled: ids.length, rows: ids.length });
      for (const worker of workers) expect(await stopWorker(worker)).toBe(0);
      expect(shipped()).toBe(ids.length);
      expect(await jobStates(shop.orders)).toEqual({ completed: expect.any(Number) });
    },
    120_000,
  );

  it("SIGKILL: another worker takes the payments over once their heartbeats stop, and fulfils one paid meanwhile once", async () => {
    shop = await openShop(10);
    const orders = await placeOrders(shop, 8);
    const ids = orders.map((order) => order.paymentId!);
    // The shortest lease pg-boss allows (10 s without a heartbeat), and watches longer than the test: the first
    // worker holds every payment until it dies, renewing its claims every 3 s.
    const env = { LEASE_SECONDS: "10" };
    const doomed = await start("doomed", env);
    await until(allWatched(ids), "every payment watched by the first worker");
    doomed.child.kill("SIGKILL");
    await doomed.exited;
    // Paid while no worker runs: nobody polls them; each payment still has its one job, held by the dead worker.
    for (const id of ids.slice(0, 4)) shop.mock.service.completePayment(id);
    const live = await liveJobs(shop.orders);
    expect(live.map((job) => job.orderId).sort()).toEqual(orders.map((order) => order.id).sort());
    expect(live.map((job) => job.state)).toEqual(ids.map(() => "active"));

    await start("heir", env);
    await until(allFulfilled(4), "the paid orders fulfilled by the second worker");
    for (const id of ids.slice(4)) shop.mock.service.completePayment(id);
    await until(allFulfilled(ids.length), "every order fulfilled");

    const { watches, overlapping } = watchesOf(shop.mock);
    expect(overlapping).toEqual([]);
    const heirs = watches.filter((watch) => watch.worker === "heir");
    expect(new Set(heirs.map((watch) => watch.paymentId))).toEqual(new Set(ids));
    // Each job the dead worker held came back as a retry (its heartbeats stopped) and was watched by the heir.
    for (const job of live) {
      expect(heirs.some((watch) => watch.job === job.id && watch.attempt > job.attempt)).toBe(true);
    }
    expect(await fulfilments(shop.orders)).toEqual({ fulfilled: ids.length, rows: ids.length });
    // Each worker logs a fulfilment after its database commit: stop them, so that every line has arrived.
    for (const worker of workers) await stopWorker(worker);
    expect(shipped(), workers.map((worker) => `${worker.name}:\n${worker.output()}`).join("\n")).toBe(
      ids.length,
    );
  }, 120_000);

  it("a live worker keeps its payments past the lease: its heartbeats renew the claims, no other worker takes them", async () => {
    shop = await openShop(10);
    const orders = await placeOrders(shop, 4);
    const ids = orders.map((order) => order.paymentId!);
    const keeper = await start("keeper", { LEASE_SECONDS: "10" });
    await until(allWatched(ids), "every payment watched by the first worker");
    const first = await liveJobs(shop.orders);
    await start("idle", { LEASE_SECONDS: "10" });
    // Until the mock has seen the keeper's calls span more than two leases and a supervisor pass (its clock, read
    // as a lower bound only): without heartbeats, the idle worker would have taken the payments by then.
    const spanOf = () => {
      const times = shop.mock.service.requests.filter((r) => r.path.endsWith("/status")).map((r) => r.time);
      return times.length ? Math.max(...times) - Math.min(...times) : 0;
    };
    await until(() => spanOf() > 30_000, "the keeper's watches to outlast two leases");
    expect(await liveJobs(shop.orders)).toEqual(first);
    expect(new Set(watchesOf(shop.mock).watches.map((watch) => watch.worker))).toEqual(new Set(["keeper"]));
    for (const id of ids) shop.mock.service.completePayment(id);
    await until(allFulfilled(ids.length), "every order fulfilled");
    expect(watchesOf(shop.mock).overlapping).toEqual([]);
    expect(keeper.output()).not.toContain(": lost");
  }, 120_000);

  it("SIGTERM hands every payment back at once: the next worker takes them before any lease runs out", async () => {
    // A lease far longer than the test: a payment the next worker watches was handed back, not expired.
    shop = await openShop(600);
    const orders = await placeOrders(shop, 6);
    const ids = orders.map((order) => order.paymentId!);
    const leaving = await start("leaving", { LEASE_SECONDS: "600", WATCH_MS: "300000" });
    await until(allWatched(ids), "every payment watched by the first worker");
    expect(await jobStates(shop.orders)).toEqual({ active: ids.length });

    expect(await stopWorker(leaving)).toBe(0);
    expect(leaving.output()).toContain('"handed_back":6');
    // Each job completed and its successor queued, in one transaction per payment: none active, none lost.
    expect(await jobStates(shop.orders)).toEqual({ completed: ids.length, created: ids.length });

    await start("next", { LEASE_SECONDS: "600", WATCH_MS: "300000" });
    await until(
      () => watchesOf(shop.mock).watches.filter((watch) => watch.worker === "next").length === ids.length,
      "every payment watched by the next worker",
    );
    for (const id of ids) shop.mock.service.completePayment(id);
    await until(allFulfilled(ids.length), "every order fulfilled");
    expect(watchesOf(shop.mock).overlapping).toEqual([]);
  }, 120_000);
});
