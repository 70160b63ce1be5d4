/**
 * Polling a payment's status until it is final (`waitForFinal`, `watch`), shared by `payments` and `checkout`.
 *
 * @module
 */
import { abortErrorOf, onAbort } from "../core/abort.js";
import type { APIPromise } from "../core/api-promise.js";
import { DEADLINE, type DeadlineOptions, deadlineIn, fitsBefore } from "../core/deadline.js";
import { checkRequestOptions, type RequestOptions } from "../core/request-options.js";
import { sleep } from "../core/retry.js";
import { ConnectionError, InternalServerError, PollTimeoutError, RateLimitError } from "../errors.js";
import { isFinalPaymentStatus } from "../model/payments.js";
import type { PaymentStatusResult } from "../schemas/payments.js";
import { checkOptions, invalidInput, type ProblemOf } from "../validate/issues.js";
import { delayProblem } from "../validate/options.js";
import { APIResource } from "./resource.js";

/**
 * Options of `waitForFinal` and `watch`: how to poll, and the request options every status call takes. `timeoutMs`
 * is the time allowed for each status call; `maxWaitMs` is the deadline of the whole wait.
 */
export interface PollOptions extends RequestOptions {
  /**
   * Overall deadline of the wait in milliseconds; then `waitForFinal` throws `PollTimeoutError` and `watch` ends by
   * throwing it. Default 15 minutes. It covers everything: each attempt's timeout is `timeoutMs` or the time left,
   * no retry sleep runs past it, and a `Retry-After` longer than the time left ends the wait at once.
   */
  maxWaitMs?: number | undefined;
  /**
   * Called with each status change (the first status included). An observer: it cannot change or hold up the wait
   * (a promise it returns is not awaited); if it throws or its promise rejects, that is reported once as a warning
   * through the client's logger and this function is not called again by the client.
   */
  onUpdate?: ((status: PaymentStatusResult) => void) | undefined;
  /** Never poll more often than this, whatever `pollInMs` says. Default 250 ms. */
  minIntervalMs?: number | undefined;
  /** Never wait longer than this between polls. Default 30 s. */
  maxIntervalMs?: number | undefined;
  /** The wait when the service gives no `pollInMs` hint. Default 2 s. */
  defaultIntervalMs?: number | undefined;
}

/** The options {@link PollOptions} adds to the request options, each with its rule. */
const POLL_OPTION_CHECKS: Record<Exclude<keyof PollOptions, keyof RequestOptions>, ProblemOf> = {
  maxWaitMs: delayProblem,
  minIntervalMs: delayProblem,
  maxIntervalMs: delayProblem,
  defaultIntervalMs: delayProblem,
  onUpdate: (fn) => (typeof fn === "function" ? undefined : "must be a function"),
};

const DEFAULTS = {
  maxWaitMs: 15 * 60_000,
  minIntervalMs: 250,
  maxIntervalMs: 30_000,
  defaultIntervalMs: 2_000,
};

/** Errors another poll may not hit (no response in time included): waiting them out is the point of polling. */
function isTransient(error: unknown): boolean {
  return (
    error instanceof ConnectionError ||
    error instanceof RateLimitError ||
    error instanceof InternalServerError
  );
}

/** Checks every option (before the first request) and splits the polling settings from the request options. */
function resolvePollOptions(options: PollOptions) {
  checkRequestOptions(options, Object.keys(POLL_OPTION_CHECKS));
  checkOptions(options, POLL_OPTION_CHECKS);
  const { maxWaitMs, onUpdate, minIntervalMs, maxIntervalMs, defaultIntervalMs, signal, ...request } =
    options;
  const settings = {
    maxWaitMs: maxWaitMs ?? DEFAULTS.maxWaitMs,
    minIntervalMs: minIntervalMs ?? DEFAULTS.minIntervalMs,
    maxIntervalMs: maxIntervalMs ?? Math.max(DEFAULTS.maxIntervalMs, minIntervalMs ?? 0),
    defaultIntervalMs: defaultIntervalMs ?? DEFAULTS.defaultIntervalMs,
  };
  if (settings.minIntervalMs > settings.maxIntervalMs) {
    throw invalidInput("options.minIntervalMs", "must not exceed options.maxIntervalMs");
  }
  return { settings, onUpdate, signal, request };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/**
 * One deadline for a whole polling run: the time every status call receives (its attempts, their timeouts and its
 * retry sleeps fit before it), and one signal that fires then or when the caller's signal does.
 */
function deadlineScope(maxWaitMs: number, signal: AbortSignal | undefined) {
  const deadline = deadlineIn(maxWaitMs);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, maxWaitMs);
  if (signal?.aborted) controller.abort();
  const stopForwarding = signal && !signal.aborted ? onAbort(signal, () => controller.abort()) : undefined;
  return {
    deadline,
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      stopForwarding?.();
    },
  };
}

/**
 * A sub-client with a payment status operation (`payments`, `checkout`), and the polling built on it: both poll
 * the same way, each through its own status path.
 */
export abstract class PollingResource extends APIResource {
  /** The payment's status: `status`, `isFinal`, `pollInMs`, and `info` once succeeded. */
  abstract status(paymentId: string, options?: RequestOptions): APIPromise<PaymentStatusResult>;

  /**
   * Polls the status until it is final (`isFinal` is `true` and the status is a documented terminal one), following the service's `pollInMs` hint, and
   * returns the final status.
   * @throws {PollTimeoutError} when `options.maxWaitMs` passes first.
   */
  async waitForFinal(paymentId: string, options?: PollOptions): Promise<PaymentStatusResult> {
    let last: PaymentStatusResult | undefined;
    for await (const status of this.watch(paymentId, options)) last = status;
    // watch only returns normally after yielding a final status.
    return last as PaymentStatusResult;
  }

  /**
   * Yields each change of the payment's status until it is final (`for await (const s of x.watch(id))`), following
   * `pollInMs` (clamped to `[minIntervalMs, maxIntervalMs]`). Transient failures (connection, timeout, 5xx, rate
   * limiting) are waited out within `maxWaitMs`; any other error ends the watch. Timers and listeners are released
   * however it ends, including when the consumer stops early.
   */
  async *watch(
    paymentId: string,
    options: PollOptions = {},
  ): AsyncGenerator<PaymentStatusResult, void, undefined> {
    const { settings, onUpdate, signal, request } = resolvePollOptions(options);
    const scope = deadlineScope(settings.maxWaitMs, signal);
    const pollOptions: DeadlineOptions = { ...request, signal: scope.signal, [DEADLINE]: scope.deadline };
    let last: PaymentStatusResult | undefined;
    try {
      for (;;) {
        let waitMs: number;
        try {
          const status = await this.status(paymentId, pollOptions);
          if (status.status !== last?.status || status.isFinal !== last.isFinal) {
            last = status;
            if (onUpdate) this.transport.observers.run(onUpdate, "onUpdate", () => onUpdate(status));
            yield status;
          }
          if (isFinalPaymentStatus(status)) return;
          // A tolerant reading may return a hint that is not a number: the default interval stands in for it.
          waitMs = typeof status.pollInMs === "number" ? status.pollInMs : settings.defaultIntervalMs;
        } catch (error) {
          if (!isTransient(error)) throw error;
          const retryAfterMs = error instanceof RateLimitError ? error.retryAfterMs : undefined;
          // The service asked for a pause longer than the time left: nothing can be read before the deadline.
          if (retryAfterMs !== undefined && !fitsBefore(scope.deadline, retryAfterMs)) break;
          waitMs = retryAfterMs ?? settings.defaultIntervalMs;
        }
        await sleep(clamp(waitMs, settings.minIntervalMs, settings.maxIntervalMs), scope.signal);
      }
      throw new PollTimeoutError(paymentId, settings.maxWaitMs, last?.status);
    } catch (error) {
      if (scope.timedOut()) throw new PollTimeoutError(paymentId, settings.maxWaitMs, last?.status);
      if (signal?.aborted) throw abortErrorOf(signal);
      throw error;
    } finally {
      scope.dispose();
    }
  }
}
