/**
 * A settlement worker on the payment-watch queue (`examples/shared/watch-queue.ts`): run as many as you like, in
 * as many processes as you like, against the shop's PostgreSQL database; each pending payment is watched by one of
 * them at a time. Why and how: `docs/workers.md`.
 *
 * Each job is one watch of one order's payment: `waitForFinal` (it follows `pollInMs` and waits out `Retry-After`
 * and `rate_limited`) for at most `watchMs`. While it watches, the worker renews its claim on every job it holds
 * (a heartbeat every `heartbeatMs`, one statement per thousand jobs), so a payment stays with one worker for the
 * whole watch and is taken over only when that worker stops renewing (SIGKILL, a hung process). Then:
 * - final: the order is fulfilled once (`settleOrder`: the conditional update) or marked unpaid, and the job ends;
 * - not final yet (the watch ran out): the job is handed on (`requeue`: completed and enqueued again in one
 *   transaction), for this worker or another;
 * - shutdown (the signal aborts): every watch stops at once and hands its job on the same way;
 * - any other error: the job is handed on with a delay (`errorDelaySeconds`), never dropped;
 * - its claim lapsed (a heartbeat came too late, and another worker may hold the job now): the watch stops at once,
 *   and the job is left to whoever holds it.
 *
 * @module
 */
import {
  type MerchantPaymentsClient,
  type PaymentStatusResult,
  type PollOptions,
  PollTimeoutError,
  UserAbortError,
} from "merchant-payments";
import { type FulfilHandler, type Settlement, settleOrder } from "../shared/checkout-flow";
import type { Order, Orders } from "../shared/orders";
import type { WatchJob, WatchQueue } from "../shared/watch-queue";

/** Options of {@link runWatchWorker}. */
export interface WatchWorkerOptions {
  /** Abort to stop: every watch hands its payment back to the queue at once, then the promise resolves. */
  signal?: AbortSignal;
  /** How many payments this worker watches at a time. Default 100. */
  capacity?: number;
  /**
   * How long one job's watch lasts at most before it is handed on (each lasts between three quarters of it and
   * all of it, spread at random). Default: two thirds of the queue's `maxWatchSeconds`.
   */
  watchMs?: number;
  /** How often the worker renews its claim on the jobs it holds. Default: a third of the queue's lease. */
  heartbeatMs?: number;
  /** How often the worker asks the queue for work while it has free capacity. Default 1 s. */
  fetchIntervalMs?: number;
  /** How long a job that failed with an unexpected error waits before its next watch. Default 60 s. */
  errorDelaySeconds?: number;
  /** Polling options of each watch (intervals, request options); the deadline is `watchMs`. */
  poll?: Omit<PollOptions, "signal" | "maxWaitMs">;
  /**
   * Sends this header with every status call, valued `<worker>/<job id>/<attempt>`: which worker watched which
   * payment, in the service's (or the mock's) request log. Default: none.
   */
  traceHeader?: string;
  /** This worker's name in `traceHeader` and in logs. Default `worker-<pid>`. */
  name?: string;
  /** Called once per order, in the fulfilling transaction: ship here. */
  onFulfil?: FulfilHandler;
  /** Called after each job: how it ended. */
  onJob?: (event: WatchEvent) => void;
}

/**
 * How one job ended: settled, handed on (watch ran out, shutdown), an error (handed on with a delay), or its
 * claim lost to a late heartbeat (`lost`: the job is another worker's now).
 */
export interface WatchEvent {
  orderId: string;
  paymentId: string;
  outcome: Settlement | "gone" | "requeued" | "handed_back" | "lost" | "error";
  error?: unknown;
}

/** What a worker did, by outcome. */
export type WatchWorkerStats = Record<WatchEvent["outcome"], number>;

/** A job this worker holds, and how to stop its watch. */
interface Holding {
  job: WatchJob;
  stop: AbortController;
  /** Set when a heartbeat found the claim gone: the watch stops, and the job is not this worker's to settle. */
  lost: boolean;
}

/** Another worker holds this job now (or a newer attempt of it): its watch stops, and it is not handed on. */
function loseClaim(holding: Holding): void {
  holding.lost = true;
  holding.stop.abort();
}

/** Runs a worker until `options.signal` aborts; resolves once every payment it held is back in the queue. */
export async function runWatchWorker(
  client: MerchantPaymentsClient,
  orders: Orders,
  options: WatchWorkerOptions = {},
): Promise<WatchWorkerStats> {
  const queue = orders.watches;
  if (!queue) throw new Error("runWatchWorker needs the orders of a PostgreSQL server (openOrders({ url }))");
  const settings = settingsOf(queue, options);
  const { signal, capacity, fetchIntervalMs } = settings;
  const stats = emptyStats();
  const held = new Map<string, Holding>();
  const stopAll = () => {
    for (const holding of held.values()) holding.stop.abort();
  };
  signal?.addEventListener("abort", stopAll, { once: true });
  const heartbeat = startHeartbeat(queue, held, settings.heartbeatMs);
  // Jobs whose watch a shutdown stopped: handed back together, in one transaction per thousand.
  const handBack: WatchJob[] = [];
  const watch = watcher(client, orders, queue, { ...settings, handBack });
  const inFlight = new Set<Promise<void>>();
  while (!signal?.aborted) {
    const free = capacity - inFlight.size;
    const jobs = free > 0 ? await take(queue, Math.min(free, 500)) : [];
    // Their orders in one query, not one per job: a start or a takeover takes hundreds of jobs at once.
    const known = await ordersOf(orders, jobs);
    for (const job of jobs) {
      const holding: Holding = { job, stop: new AbortController(), lost: false };
      // A retry of a job this worker still watches (its claim lapsed, then came back here): the old watch stops.
      const previous = held.get(job.id);
      if (previous) loseClaim(previous);
      held.set(job.id, holding);
      const run: Promise<void> = watch(holding, known).then((event) => {
        // Only this attempt's entry: a retry of the same job may have been taken meanwhile, under the same id.
        if (held.get(job.id) === holding) held.delete(job.id);
        stats[event.outcome]++;
        options.onJob?.(event);
        inFlight.delete(run);
      });
      inFlight.add(run);
    }
    // A full batch: more may be waiting, take again at once. Otherwise wait (a shutdown ends the wait).
    if (jobs.length === 0 || jobs.length < Math.min(free, 500)) await pause(fetchIntervalMs, signal);
  }
  stopAll();
  await Promise.all(inFlight);
  await heartbeat.stop();
  signal?.removeEventListener("abort", stopAll);
  await queue.requeueAll(handBack).catch((error: unknown) => {
    // The database is unreachable: the jobs' leases run out and pg-boss retries them. Still never dropped.
    console.error(`payment-watch: could not hand back ${handBack.length} payment(s): ${String(error)}`);
  });
  return stats;
}

const emptyStats = (): WatchWorkerStats => ({
  fulfilled: 0,
  already_fulfilled: 0,
  unpaid: 0,
  waiting: 0,
  gone: 0,
  requeued: 0,
  handed_back: 0,
  lost: 0,
  error: 0,
});

type WorkerSettings = WatchWorkerOptions & {
  capacity: number;
  watchMs: number;
  heartbeatMs: number;
  fetchIntervalMs: number;
};

/** The options with their defaults, checked against the queue's lease and longest hold. */
function settingsOf(queue: WatchQueue, options: WatchWorkerOptions): WorkerSettings {
  const { capacity = 100, fetchIntervalMs = 1000 } = options;
  if (!Number.isInteger(capacity) || capacity < 1)
    throw new RangeError(`capacity must be a positive integer: ${capacity}`);
  const watchMs = options.watchMs ?? Math.floor((queue.maxWatchSeconds * 1000 * 2) / 3);
  if (!(watchMs > 0 && watchMs < queue.maxWatchSeconds * 1000))
    throw new RangeError(
      `watchMs (${watchMs}) must be shorter than the queue's maxWatchSeconds (${queue.maxWatchSeconds} s)`,
    );
  const heartbeatMs = options.heartbeatMs ?? Math.floor((queue.leaseSeconds * 1000) / 3);
  if (!(heartbeatMs > 0)) throw new RangeError(`heartbeatMs must be positive: ${heartbeatMs}`);
  return { ...options, capacity, fetchIntervalMs, watchMs, heartbeatMs };
}

/**
 * Renews the claim on every held job each `intervalMs` (one renewal at a time: a slow database skips a beat
 * rather than piling them up). A job whose claim lapsed has its watch stopped. A renewal that fails (the database
 * unreachable) is logged and tried again at the next beat: past the lease, the jobs go to another worker, and the
 * next renewal that gets through stops their watches here.
 */
function startHeartbeat(queue: WatchQueue, held: Map<string, Holding>, intervalMs: number) {
  let beating: Promise<void> | undefined;
  const isHeld = (job: WatchJob) => held.get(job.id)?.job === job;
  const beat = async () => {
    try {
      const lost = await queue.renew(
        [...held.values()].map((holding) => holding.job),
        isHeld,
      );
      for (const job of lost) {
        const holding = held.get(job.id);
        if (holding?.job === job) loseClaim(holding);
      }
    } catch (error) {
      console.error(`payment-watch: could not renew the claims on ${held.size} payment(s): ${String(error)}`);
    }
  };
  const timer = setInterval(() => {
    if (beating || held.size === 0) return;
    beating = beat().finally(() => (beating = undefined));
  }, intervalMs);
  // Stopping waits for a renewal under way: the queue (and its pool) may be closed right after.
  return {
    async stop(): Promise<void> {
      clearInterval(timer);
      await beating;
    },
  };
}

/**
 * The orders of these jobs, by id; undefined when the database cannot be reached (each watch then asks for its
 * own order, and fails into a delayed hand-on like any other error).
 */
async function ordersOf(orders: Orders, jobs: readonly WatchJob[]): Promise<Map<string, Order> | undefined> {
  if (jobs.length === 0) return new Map();
  try {
    return await orders.getMany(jobs.map((job) => job.data.orderId));
  } catch {
    return undefined;
  }
}

/** The queue's jobs, or none for now when the database cannot be reached (the next round asks again). */
async function take(queue: WatchQueue, limit: number): Promise<WatchJob[]> {
  try {
    return await queue.take(limit);
  } catch (error) {
    console.error(`payment-watch: could not take jobs: ${String(error)}`);
    return [];
  }
}

type WatchSettings = WorkerSettings & { handBack: WatchJob[] };

/** One job's watch, as a function of the job: never throws, always says how the job ended. */
function watcher(client: MerchantPaymentsClient, orders: Orders, queue: WatchQueue, settings: WatchSettings) {
  const { watchMs, poll = {}, traceHeader, onFulfil, errorDelaySeconds = 60 } = settings;
  const name = settings.name ?? `worker-${process.pid}`;
  return async (holding: Holding, known: Map<string, Order> | undefined): Promise<WatchEvent> => {
    const { job, stop } = holding;
    const { orderId, paymentId } = job.data;
    const event = (outcome: WatchEvent["outcome"], error?: unknown): WatchEvent =>
      error === undefined ? { orderId, paymentId, outcome } : { orderId, paymentId, outcome, error };
    const pace = pacing(poll);
    try {
      const order = known ? known.get(orderId) : await orders.get(orderId);
      // Settled since it was enqueued (by the buyer's return, say), or not this payment's order any more.
      if (order?.state !== "awaiting_payment" || order.paymentId !== paymentId) {
        await queue.done(job);
        return event("gone");
      }
      const headers = traceHeader
        ? { ...poll.headers, [traceHeader]: `${name}/${job.id}/${job.retryCount}` }
        : poll.headers;
      // Between three quarters of watchMs and watchMs: watches taken together (a worker's start, a takeover) would
      // otherwise all end together, and their hand-ons would queue on the database at once.
      const maxWaitMs = Math.round(watchMs * (0.75 + 0.25 * Math.random()));
      const wait = { ...poll, headers, maxWaitMs, signal: stop.signal, onUpdate: pace.onUpdate };
      const outcome = await settleOrder(client, orders, order, { wait, onFulfil });
      // "waiting": a final answer that contradicts itself (see settleOrder); look again later.
      await (outcome === "waiting" ? queue.requeue(job, errorDelaySeconds) : queue.done(job));
      return event(outcome);
    } catch (error) {
      if (error instanceof UserAbortError && stop.signal.aborted) {
        // The heartbeat found the claim gone: the job is another worker's now, not this one's to hand on.
        if (holding.lost) return event("lost");
        settings.handBack.push(job);
        return event("handed_back");
      }
      // A watch that ran out hands on to a watch that polls when this one would have (pollInMs goes on).
      const timedOut = error instanceof PollTimeoutError;
      const delaySeconds = timedOut ? pace.nextPollSeconds() : errorDelaySeconds;
      await queue.requeue(job, delaySeconds).catch((requeueError: unknown) => {
        // The database is unreachable: the job's lease runs out and pg-boss retries it. Still never dropped.
        console.error(`payment-watch: could not hand on ${orderId}: ${String(requeueError)}`);
      });
      if (timedOut) return event("requeued");
      console.error(`payment-watch: ${orderId}: ${String(error)}`);
      return event("error", error);
    }
  };
}

/**
 * When a watch's next status call was due: from its first answer's `pollInMs` (clamped as the SDK clamps it) and
 * when that answer came. Whole seconds, rounded up: a handed-on payment is never polled sooner than `pollInMs`.
 */
function pacing(poll: Omit<PollOptions, "signal" | "maxWaitMs">) {
  let first: { at: number; intervalMs: number } | undefined;
  return {
    onUpdate(status: PaymentStatusResult): void {
      if (!first && typeof status.pollInMs === "number") {
        const intervalMs = Math.min(
          Math.max(status.pollInMs, poll.minIntervalMs ?? 250),
          poll.maxIntervalMs ?? 30_000,
        );
        first = { at: Date.now(), intervalMs };
      }
      poll.onUpdate?.(status);
    },
    nextPollSeconds(): number {
      if (!first) return 0;
      const sinceDue = (Date.now() - first.at) % first.intervalMs;
      return Math.ceil((first.intervalMs - sinceDue) / 1000);
    },
  };
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
