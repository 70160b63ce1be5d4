/**
 * A background worker that settles pending payments: it polls each one with `waitForFinal` (which follows the
 * service's `pollInMs` hint and waits out transient errors), at most `concurrency` at a time, and stops cleanly on
 * SIGINT/SIGTERM through an `AbortSignal`.
 *
 * With `DATABASE_URL` (the shop's PostgreSQL server) it is one of any number of settlement workers sharing the
 * payment-watch queue of the shop's database (`./worker/watch-worker.ts`, `docs/workers.md`): each pending
 * payment is watched by one worker at a time, a killed worker's payments are taken over after its lease, and
 * SIGTERM hands them back at once. `npm run workers -- 3` runs three.
 *
 * Use it for payments whose buyer never came back to your return URL (closed tab, lost connection): the status
 * operation is the source of truth, not the redirect.
 *
 * - {@link settleOrders}: the shop's orders awaiting payment (`examples/shared/orders.ts`), each fulfilled once
 *   when its payment succeeded, even while the buyer's return handles the same order: the fulfilment is a
 *   conditional update in a transaction.
 * - {@link settlePending}: any list of payment ids, with a callback per final status.
 *
 * ```sh
 * # The orders of the Express example, on a PostgreSQL server shared with the shop (the payment-watch queue):
 * MERCHANT_PAYMENTS_API_KEY=… MERCHANT_PAYMENTS_BASE_URL=… MERCHANT_PAYMENTS_MERCHANT_ID=mrch_… \
 *   DATABASE_URL=postgres://… npx tsx examples/worker.ts
 * # Given payments:
 * MERCHANT_PAYMENTS_API_KEY=… MERCHANT_PAYMENTS_BASE_URL=… MERCHANT_PAYMENTS_MERCHANT_ID=mrch_… \
 *   PAYMENT_IDS=pay_1,pay_2 npx tsx examples/worker.ts
 * ```
 *
 * An embedded database (PGlite in `SHOP_DATA_DIR`) belongs to one process: run the worker in the shop's process
 * then (as the demo does), or give both `DATABASE_URL`.
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import {
  MerchantPaymentsClient,
  type PaymentStatusResult,
  type PollOptions,
  PollTimeoutError,
  UserAbortError,
} from "merchant-payments";
import { type FulfilHandler, type Settlement, settleOrder } from "./shared/checkout-flow";
import { type Orders, openOrders } from "./shared/orders";
import { runWatchWorker } from "./worker/watch-worker";

/** Options of {@link settlePending}. */
export interface SettleOptions {
  /** How many payments are polled at the same time. Default 4. */
  concurrency?: number;
  /** Abort to shut down: polling stops at once and payments not started yet are left alone. */
  signal?: AbortSignal;
  /** Polling options of each `waitForFinal` (deadline, intervals, `merchantId`). */
  poll?: Omit<PollOptions, "signal">;
  /** Called when a payment reaches a final status: fulfil, notify, or release stock here. */
  onFinal?: (paymentId: string, status: PaymentStatusResult) => void | Promise<void>;
}

/** What happened to one payment. */
export type SettleResult =
  | { paymentId: string; outcome: "final"; status: PaymentStatusResult }
  /** Not final by the poll deadline; `lastStatus` is where it was. Try again in a later run. */
  | { paymentId: string; outcome: "timeout"; lastStatus: string | undefined }
  /** Shutdown came first. */
  | { paymentId: string; outcome: "aborted" }
  /** Any other error (for example `NotFoundError`: a payment of another mode or merchant). */
  | { paymentId: string; outcome: "error"; error: unknown };

/** Polls every payment until it is final, `concurrency` at a time. Resolves with one result per id, in order. */
export async function settlePending(
  client: MerchantPaymentsClient,
  paymentIds: readonly string[],
  options: SettleOptions = {},
): Promise<SettleResult[]> {
  const { concurrency = 4, signal, poll = {}, onFinal } = options;
  return mapWithConcurrency(paymentIds, concurrency, signal, async (paymentId): Promise<SettleResult> => {
    try {
      const status = await client.payments.waitForFinal(paymentId, { ...poll, signal });
      await onFinal?.(paymentId, status);
      return { paymentId, outcome: "final", status };
    } catch (error) {
      if (error instanceof UserAbortError) return { paymentId, outcome: "aborted" };
      if (error instanceof PollTimeoutError)
        return { paymentId, outcome: "timeout", lastStatus: error.lastStatus };
      return { paymentId, outcome: "error", error };
    }
  }).then((results) =>
    results.map((result, i) => result ?? { paymentId: paymentIds[i] ?? "", outcome: "aborted" }),
  );
}

/** Options of {@link settleOrders}. */
export interface SettleOrdersOptions {
  /** How many orders are polled at the same time. Default 4. */
  concurrency?: number;
  /** Abort to shut down: polling stops and orders not started yet are left for the next run. */
  signal?: AbortSignal;
  /** Poll each payment until it is final (polling options), or ask once per run (false). Default: poll. */
  poll?: Omit<PollOptions, "signal"> | false;
  /** How many orders one run takes. Default 100. */
  limit?: number;
  /** Called once per order, in the fulfilling transaction, when its payment succeeded: ship here. */
  onFulfil?: FulfilHandler;
}

/** What happened to one order in {@link settleOrders}: a {@link Settlement}, or why it was left for later. */
export interface OrderSettlement {
  orderId: string;
  outcome: Settlement | "timeout" | "aborted" | "error";
  error?: unknown;
}

/**
 * Settles the orders awaiting payment: asks the service for each payment's status and fulfils each paid order
 * once (`orders.fulfil`), or notes a failed, expired or cancelled payment. Resolves with one result per order.
 */
export async function settleOrders(
  client: MerchantPaymentsClient,
  orders: Orders,
  options: SettleOrdersOptions = {},
): Promise<OrderSettlement[]> {
  const { concurrency = 4, signal, poll = {}, limit, onFulfil } = options;
  const pending = await orders.awaitingPayment(limit);
  const results = await mapWithConcurrency(
    pending,
    concurrency,
    signal,
    async (order): Promise<OrderSettlement> => {
      try {
        const wait = poll && { ...poll, signal };
        return { orderId: order.id, outcome: await settleOrder(client, orders, order, { wait, onFulfil }) };
      } catch (error) {
        if (error instanceof UserAbortError) return { orderId: order.id, outcome: "aborted" };
        if (error instanceof PollTimeoutError) return { orderId: order.id, outcome: "timeout" };
        return { orderId: order.id, outcome: "error", error };
      }
    },
  );
  return results.map((result, i) => result ?? { orderId: pending[i]?.id ?? "", outcome: "aborted" });
}

/**
 * Runs `task` over `items` with at most `limit` tasks in flight. Once `signal` aborts, no new task starts; the
 * slots of tasks never started are `undefined`. `task` should not throw (a throw rejects the whole run).
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal | undefined,
  task: (item: T, index: number) => Promise<R>,
): Promise<Array<R | undefined>> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`concurrency must be a positive integer: ${limit}`);
  const results: Array<R | undefined> = Array.from({ length: items.length }, () => undefined);
  let next = 0;
  // `limit` lanes, each taking the next item as soon as its previous one is done.
  const lane = async () => {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/**
 * Settles the payments in `PAYMENT_IDS` (comma-separated) or, without it, the shop's orders awaiting payment: as
 * one of the settlement workers of the payment-watch queue with `DATABASE_URL` (until SIGTERM or Ctrl-C), else
 * once over the embedded database in `SHOP_DATA_DIR`, `CONCURRENCY` at a time. Ctrl-C stops it cleanly.
 */
export async function main(): Promise<void> {
  const client = new MerchantPaymentsClient(); // MERCHANT_PAYMENTS_* env vars
  const ids = (process.env.PAYMENT_IDS ?? "").split(",").filter(Boolean);
  const shutdown = new AbortController();
  for (const name of ["SIGINT", "SIGTERM"] as const) process.once(name, () => shutdown.abort());
  if (ids.length === 0 && process.env.DATABASE_URL) return runQueueWorker(client, shutdown.signal);
  if (ids.length === 0) return settleShopOrders(client, shutdown.signal);

  const results = await settlePending(client, ids, {
    concurrency: Number(process.env.CONCURRENCY ?? 4),
    signal: shutdown.signal,
    poll: { maxWaitMs: 10 * 60_000 },
    onFinal: (id, status) => console.log(`${id}: ${status.status}`),
  });
  const left = results.filter((r) => r.outcome !== "final").map((r) => `${r.paymentId} (${r.outcome})`);
  if (left.length > 0) console.log(`not settled, retry later: ${left.join(", ")}`);
}

/**
 * Settings from the environment: `WORKER_CAPACITY`, `WATCH_MS`, `LEASE_SECONDS` (without a heartbeat; at least
 * 10), `WORKER_NAME`, `TRACE_HEADER`.
 */
async function runQueueWorker(client: MerchantPaymentsClient, signal: AbortSignal): Promise<void> {
  const env = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const leaseSeconds = env("LEASE_SECONDS");
  const orders = await openOrders({
    url: process.env.DATABASE_URL,
    watches: {
      supervise: true,
      ...(leaseSeconds ? { leaseSeconds, superviseSeconds: Math.min(10, leaseSeconds) } : {}),
    },
  });
  try {
    const { watches } = orders;
    // Orders recorded before the queue existed (or whose job ended failed) get their watch now.
    const awaiting = await orders.awaitingPayment(1_000_000);
    const added = await watches?.enqueueAll(
      awaiting.map((o) => ({ orderId: o.id, paymentId: o.paymentId ?? "" })),
    );
    if (added) console.log(`enqueued ${added} watch(es) of orders that had none`);
    const name = process.env.WORKER_NAME ?? `worker-${process.pid}`;
    console.log(`${name}: watching the payment-watch queue (SIGTERM hands the payments back)`);
    const stats = await runWatchWorker(client, orders, {
      signal,
      name,
      capacity: env("WORKER_CAPACITY"),
      watchMs: env("WATCH_MS"),
      traceHeader: process.env.TRACE_HEADER,
      onJob: ({ orderId, outcome }) => {
        if (outcome !== "requeued" && outcome !== "handed_back") console.log(`${orderId}: ${outcome}`);
      },
    });
    console.log(`${name}: stopped ${JSON.stringify(stats)}`);
  } finally {
    await orders.close();
  }
}

async function settleShopOrders(client: MerchantPaymentsClient, signal: AbortSignal): Promise<void> {
  const orders = await openOrders({
    url: process.env.DATABASE_URL,
    dataDir: process.env.SHOP_DATA_DIR ?? ".data/express-shop",
  });
  try {
    const results = await settleOrders(client, orders, {
      concurrency: Number(process.env.CONCURRENCY ?? 4),
      signal,
      poll: { maxWaitMs: 10 * 60_000 },
      onFulfil: (order) => console.log(`${order.id}: fulfilled (payment ${order.paymentId})`),
    });
    for (const { orderId, outcome } of results) console.log(`${orderId}: ${outcome}`);
  } finally {
    await orders.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
