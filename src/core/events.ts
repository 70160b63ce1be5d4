/**
 * The transport's events: before each attempt, after each response, before each retry, and each drift found while
 * reading a body in tolerant mode. Each goes to the client's hooks and to its log; a hook or logger that throws
 * never changes a call's outcome. These four methods are the seams an observer (metrics, tracing) attaches to.
 *
 * @module
 */
import type { RequestContext } from "../errors.js";
import type { Drift } from "../schemas/parse.js";
import type { ResolvedConfig } from "./config.js";
import { log } from "./log.js";
import type { DriftEvent, RequestEvent } from "./options.js";
import type { Redactor } from "./redact.js";

/** The events of one client. */
export class Events {
  readonly #config: ResolvedConfig;
  readonly #redactor: Redactor;
  /** Drift already written to the log, per response schema: `METHOD field`. */
  readonly #driftLogged = new WeakMap<object, Set<string>>();
  /** Whether anyone listens (hooks or a logger): events are only built then, off the hot path otherwise. */
  readonly observed: boolean;

  constructor(config: ResolvedConfig, redactor: Redactor) {
    this.#config = config;
    this.#redactor = redactor;
    this.observed = config.hooks !== undefined || config.logger !== undefined;
  }

  /** An attempt is about to be sent. */
  request(event: RequestEvent): void {
    emit(this.#config.hooks?.onRequest, event);
  }

  /** An attempt got an HTTP response, 2xx or not. */
  response(event: RequestEvent, status: number, durationMs: number, requestId: string | undefined): void {
    emit(this.#config.hooks?.onResponse, { ...event, status, durationMs, requestId });
    log(this.#config, "debug", `${event.method} ${event.path} -> ${status}`, {
      attempt: event.attempt,
      durationMs: Math.round(durationMs),
      requestId,
    });
  }

  /** A failed attempt is about to be retried, after `delayMs`. */
  retry(event: RequestEvent, delayMs: number, reason: string): void {
    emit(this.#config.hooks?.onRetry, { ...event, delayMs, reason });
    log(
      this.#config,
      "warn",
      `retrying ${event.method} ${event.path} in ${Math.round(delayMs)} ms (${reason})`,
      {
        attempt: event.attempt + 1,
      },
    );
  }

  /**
   * A body differed from the interface document at one field. Hooks see every deviation; the log gets each one once
   * per operation (its response schema) and field, so that a drifting service does not flood it.
   */
  drift(request: RequestContext, schema: object, drift: Drift): void {
    const redact = this.#redactor.text;
    const event: DriftEvent = {
      operation: `${request.method} ${request.path}`,
      path: redact(drift.path),
      expected: redact(drift.expected),
      received: redact(drift.received),
    };
    emit(this.#config.hooks?.onDrift, event);
    const logged = this.#driftLogged.get(schema) ?? new Set<string>();
    this.#driftLogged.set(schema, logged);
    if (logged.has(`${request.method} ${event.path}`)) return;
    logged.add(`${request.method} ${event.path}`);
    log(this.#config, "warn", `response drift in ${event.operation} at ${event.path || "(body)"}`, {
      ...event,
    });
  }
}

function emit<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (!hook) return;
  try {
    hook(event);
  } catch {
    // A failing observer must not fail the payment call it observes.
  }
}
