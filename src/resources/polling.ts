import { onAbort } from "../core/abort.js";
import { durationProblem } from "../core/config.js";
import { abortErrorOf, sleep } from "../core/retry.js";
import type { RequestOptions } from "../core/transport.js";
import {
  ConnectionError,
  InternalServerError,
  PollTimeoutError,
  RateLimitError,
  TimeoutError,
} from "../errors.js";
import type { PaymentStatusResult } from "../schemas/payments.js";
import { checkOptions, invalidInput, type ProblemOf } from "../validate/issues.js";
import { APIResource } from "./resource.js";

/** Options of `waitForFinal` and `watch`. */
export interface PollOptions {
  /** Overall deadline in milliseconds; then `waitForFinal` throws `PollTimeoutError` and `watch` ends by throwing it. Default 15 minutes. */
  timeoutMs?: number | undefined;
  /** Stop polling at once with a `UserAbortError`. */
  signal?: AbortSignal | undefined;
  /** Called with each status change (the first status included). Errors it throws are not caught. */
  onUpdate?: ((status: PaymentStatusResult) => void) | undefined;
  /** Never poll more often than this, whatever `pollInMs` says. Default 250 ms. */
  minIntervalMs?: number | undefined;
  /** Never wait longer than this between polls. Default 30 s. */
  maxIntervalMs?: number | undefined;
  /** The wait when the service gives no `pollInMs` hint. Default 2 s. */
  defaultIntervalMs?: number | undefined;
  /** `Merchant-Id` for the status calls, instead of the client's default. */
  merchantId?: string | undefined;
}

const DEFAULTS = {
  timeoutMs: 15 * 60_000,
  minIntervalMs: 250,
  maxIntervalMs: 30_000,
  defaultIntervalMs: 2_000,
};

/** Errors another poll may not hit: waiting them out is the point of polling. */
function isTransient(error: unknown): boolean {
  return (
    error instanceof ConnectionError ||
    error instanceof TimeoutError ||
    error instanceof RateLimitError ||
    error instanceof InternalServerError
  );
}

function resolvePollOptions(options: PollOptions) {
  const settings = {
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    minIntervalMs: options.minIntervalMs ?? DEFAULTS.minIntervalMs,
    maxIntervalMs: options.maxIntervalMs ?? Math.max(DEFAULTS.maxIntervalMs, options.minIntervalMs ?? 0),
    defaultIntervalMs: options.defaultIntervalMs ?? DEFAULTS.defaultIntervalMs,
  };
  const duration: ProblemOf = (ms) => durationProblem(ms, 0);
  checkOptions(settings, {
    timeoutMs: duration,
    minIntervalMs: duration,
    maxIntervalMs: duration,
    defaultIntervalMs: duration,
  });
  if (settings.minIntervalMs > settings.maxIntervalMs) {
    throw invalidInput("options.minIntervalMs", "must not exceed options.maxIntervalMs");
  }
  return settings;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/** One signal for a whole polling run: fires at the deadline or when the caller's signal does. */
function deadlineScope(timeoutMs: number, signal: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  if (signal?.aborted) controller.abort();
  const stopForwarding = signal && !signal.aborted ? onAbort(signal, () => controller.abort()) : undefined;
  return {
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
  abstract status(paymentId: string, options?: RequestOptions): Promise<PaymentStatusResult>;

  /**
   * Polls the status until it is final, following the service's `pollInMs` hint, and returns the final status.
   * @throws {PollTimeoutError} when `options.timeoutMs` passes first.
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
   * limiting) are waited out within the deadline; any other error ends the watch. Timers and listeners are released
   * however it ends, including when the consumer stops early.
   */
  async *watch(
    paymentId: string,
    options: PollOptions = {},
  ): AsyncGenerator<PaymentStatusResult, void, undefined> {
    const settings = resolvePollOptions(options);
    const scope = deadlineScope(settings.timeoutMs, options.signal);
    let last: PaymentStatusResult | undefined;
    try {
      for (;;) {
        let waitMs: number;
        try {
          const status = await this.status(paymentId, {
            signal: scope.signal,
            merchantId: options.merchantId,
          });
          if (status.status !== last?.status || status.isFinal !== last.isFinal) {
            last = status;
            options.onUpdate?.(status);
            yield status;
          }
          if (status.isFinal) return;
          waitMs = status.pollInMs ?? settings.defaultIntervalMs;
        } catch (error) {
          if (!isTransient(error)) throw error;
          waitMs =
            error instanceof RateLimitError
              ? (error.retryAfterMs ?? settings.defaultIntervalMs)
              : settings.defaultIntervalMs;
        }
        await sleep(clamp(waitMs, settings.minIntervalMs, settings.maxIntervalMs), scope.signal);
      }
    } catch (error) {
      if (scope.timedOut()) throw new PollTimeoutError(paymentId, settings.timeoutMs, last?.status);
      if (options.signal?.aborted) throw abortErrorOf(options.signal);
      throw error;
    } finally {
      scope.dispose();
    }
  }
}
