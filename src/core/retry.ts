import { UserAbortError } from "../errors.js";
import { onAbort } from "./abort.js";

/** When and how long the SDK waits before retrying. Data, so a test or a user can see and tune it. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Delay before the first retry; doubles on each retry. */
  baseDelayMs: number;
  /** The longest computed backoff. */
  maxDelayMs: number;
  /** The longest wait a `Retry-After` header can impose. */
  maxRetryAfterMs: number;
}

/** Defaults: 2 retries, 0.5 s then 1 s (with jitter), `Retry-After` honoured up to 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** HTTP statuses worth another attempt: the service (or a proxy) may answer differently next time. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Delay before retry number `retry` (1-based): exponential backoff with "equal jitter" (half fixed, half random),
 * so that many clients failing together do not come back together, and no delay collapses to zero.
 * A `Retry-After` the service sent wins, capped by the policy.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  const backoff = Math.min(policy.baseDelayMs * 2 ** (retry - 1), policy.maxDelayMs);
  return backoff / 2 + (random() * backoff) / 2;
}

/** Reads `Retry-After` as seconds or as an HTTP date; `undefined` when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`, or rejects with {@link UserAbortError} as soon as `signal` aborts. Leaves no timer or listener behind. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortErrorOf(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stopWaiting?.();
      resolve();
    }, ms);
    const stopWaiting =
      signal &&
      onAbort(signal, () => {
        clearTimeout(timer);
        reject(abortErrorOf(signal));
      });
  });
}

/** The error to throw when the caller's signal aborted: a {@link UserAbortError} whose cause is the signal's reason. */
export function abortErrorOf(signal: AbortSignal | undefined): UserAbortError {
  return new UserAbortError("The request was aborted", { cause: signal?.reason });
}
