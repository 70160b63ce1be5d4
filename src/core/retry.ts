/**
 * When the transport tries again: which failed attempts may be repeated (`shouldRetry`, the one decision), how long
 * it waits first (backoff, `Retry-After`), and the wait itself.
 *
 * @module
 */
import { abortErrorOf, onAbort } from "./abort.js";
import type { FailedAttempt } from "./failures.js";

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

/** What the retry decision needs of a call. */
export interface RetryBudget {
  /** A POST may be repeated only under an idempotency key: the service then replays instead of creating twice. */
  safeToRepeat: boolean;
  maxRetries: number;
}

/** The one retry decision: a failure another attempt may fix, a call safe to repeat, and retries left. */
export function shouldRetry(failure: FailedAttempt, call: RetryBudget, attempt: number): boolean {
  const mayRepeat = call.safeToRepeat || failure.serviceDidNotAct;
  return failure.retryable && mayRepeat && attempt < call.maxRetries;
}

/**
 * Delay before retry number `retry` (1-based): exponential backoff with "equal jitter" (half fixed, half random),
 * so that many clients failing together do not come back together, and no delay collapses to zero.
 * A `Retry-After` the service sent wins, capped by the settings.
 */
export function retryDelayMs(
  settings: RetryPolicy,
  retry: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, settings.maxRetryAfterMs);
  const backoff = Math.min(settings.baseDelayMs * 2 ** (retry - 1), settings.maxDelayMs);
  return backoff / 2 + (random() * backoff) / 2;
}

const MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec";
const DAY = "Mon|Tue|Wed|Thu|Fri|Sat|Sun";
const LONG_DAY = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday";
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
/** `Sun, 06 Nov 1994 08:49:37 GMT`: the form RFC 9110 has senders use. */
const IMF_FIXDATE = new RegExp(`^(?:${DAY}), (\\d{2}) (${MONTHS}) (\\d{4}) ${TIME} GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT`: obsolete, but RFC 9110 has recipients accept it. */
const RFC850_DATE = new RegExp(`^(?:${LONG_DAY}), (\\d{2})-(${MONTHS})-(\\d{2}) ${TIME} GMT$`);
/** `Sun Nov  6 08:49:37 1994` (C's asctime): obsolete, accepted likewise. */
const ASCTIME_DATE = new RegExp(`^(?:${DAY}) (${MONTHS}) ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * Reads `Retry-After` as RFC 9110 defines it and nothing else: delta-seconds (digits only) or an HTTP-date (IMF-fixdate,
 * or the obsolete RFC 850 and asctime forms). Anything else (`-1`, `1.5`, `1,2`, a date in another form) is
 * `undefined`: the caller then falls back to its own backoff. A date in the past is 0.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = httpDate(value, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

/** An HTTP-date in milliseconds since the epoch, or `undefined` when `value` is not one. */
function httpDate(value: string, now: number): number | undefined {
  let match = IMF_FIXDATE.exec(value);
  if (match) {
    const [, day, month, year, hh, mm, ss] = match as unknown as string[];
    return utc(Number(year), month!, Number(day), hh!, mm!, ss!);
  }
  match = RFC850_DATE.exec(value);
  if (match) {
    const [, day, month, yy, hh, mm, ss] = match as unknown as string[];
    return utc(fullYear(Number(yy), now), month!, Number(day), hh!, mm!, ss!);
  }
  match = ASCTIME_DATE.exec(value);
  if (match) {
    const [, month, day, hh, mm, ss, year] = match as unknown as string[];
    return utc(Number(year), month!, Number(day!.trim()), hh!, mm!, ss!);
  }
  return undefined;
}

/** RFC 9110: a two-digit year more than 50 years ahead is the most recent past year with those digits. */
function fullYear(twoDigits: number, now: number): number {
  const thisYear = new Date(now).getUTCFullYear();
  let year = thisYear - (thisYear % 100) + twoDigits;
  if (year > thisYear + 50) year -= 100;
  return year;
}

function utc(
  year: number,
  monthName: string,
  day: number,
  hh: string,
  mm: string,
  ss: string,
): number | undefined {
  const month = MONTHS.split("|").indexOf(monthName);
  const [hours, minutes, seconds] = [Number(hh), Number(mm), Number(ss)];
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const time = Date.UTC(year, month, day, hours, minutes, Math.min(seconds, 59));
  // Date.UTC rolls 31 Feb over into March: such a date is not a date.
  return new Date(time).getUTCDate() === day ? time : undefined;
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
