/**
 * One deadline for a whole wait (`waitForFinal`, `watch`, `verifyReturn`'s wait): an absolute time, on the monotonic
 * clock, that every call of the wait receives as an internal request option. The transport then cuts each attempt's
 * timeout to the time left and takes no retry sleep that would end past it, so the wait ends when it said it would,
 * whatever `timeoutMs`, `maxRetries` and `Retry-After` are.
 *
 * @module
 */
import type { RequestOptions } from "./request-options.js";

/**
 * The key of the deadline option. A symbol: it is not one of the public request options, `checkRequestOptions`
 * (which reads `Object.keys`) never sees it, and a spread of the options carries it along.
 */
export const DEADLINE: unique symbol = Symbol("merchant-payments.deadline");

/** Request options with the deadline of the wait they belong to (`performance.now()` time, milliseconds). */
export interface DeadlineOptions extends RequestOptions {
  [DEADLINE]?: number | undefined;
}

/** The wait's deadline `ms` from now. */
export function deadlineIn(ms: number): number {
  return performance.now() + ms;
}

/** The deadline carried by `options`, if any. */
export function deadlineOf(options: RequestOptions | undefined): number | undefined {
  return (options as DeadlineOptions | undefined)?.[DEADLINE];
}

/** Milliseconds left before `deadline` (Infinity without one; 0 or less once passed). */
export function timeLeftMs(deadline: number | undefined): number {
  return deadline === undefined ? Number.POSITIVE_INFINITY : deadline - performance.now();
}

/** Whether a wait of `ms` starting now ends before `deadline`: a sleep that does not is not taken. */
export function fitsBefore(deadline: number | undefined, ms: number): boolean {
  return ms < timeLeftMs(deadline);
}

/**
 * The timeout of the next attempt: the call's `timeoutMs`, cut to the time left before the deadline (whole
 * milliseconds, at least 1), or `undefined` when the deadline has passed and no attempt may start.
 */
export function attemptTimeoutMs(timeoutMs: number, deadline: number | undefined): number | undefined {
  const left = timeLeftMs(deadline);
  if (left <= 0) return undefined;
  return Math.min(timeoutMs, Math.max(1, Math.ceil(left)));
}
