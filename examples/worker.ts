/**
 * A background worker that settles pending payments: it polls each one with `waitForFinal` (which follows the
 * service's `pollInMs` hint and waits out transient errors), at most `concurrency` at a time, and stops cleanly on
 * SIGINT/SIGTERM through an `AbortSignal`.
 *
 * Use it for payments whose buyer never came back to your return URL (closed tab, lost connection): the status
 * operation is the source of truth, not the redirect.
 *
 * ```sh
 * MERCHANT_PAYMENTS_API_KEY=… MERCHANT_PAYMENTS_BASE_URL=… MERCHANT_PAYMENTS_MERCHANT_ID=mrch_… \
 *   PAYMENT_IDS=pay_1,pay_2 npx tsx examples/worker.ts
 * ```
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
  const results: Array<R | undefined> = new Array(items.length).fill(undefined);
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

/** Settles the payments in `PAYMENT_IDS` (comma-separated), `CONCURRENCY` at a time; Ctrl-C stops it cleanly. */
export async function main(): Promise<void> {
  const client = new MerchantPaymentsClient(); // MERCHANT_PAYMENTS_* env vars
  const ids = (process.env.PAYMENT_IDS ?? "").split(",").filter(Boolean);
  const shutdown = new AbortController();
  for (const name of ["SIGINT", "SIGTERM"] as const) process.once(name, () => shutdown.abort());

  const results = await settlePending(client, ids, {
    concurrency: Number(process.env.CONCURRENCY ?? 4),
    signal: shutdown.signal,
    poll: { timeoutMs: 10 * 60_000 },
    onFinal: (id, status) => console.log(`${id}: ${status.status}`),
  });
  const left = results.filter((r) => r.outcome !== "final").map((r) => `${r.paymentId} (${r.outcome})`);
  if (left.length > 0) console.log(`not settled, retry later: ${left.join(", ")}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
