/**
 * The transport's events: before each attempt, after each response, before each retry, and each drift found while
 * reading a body in tolerant mode. Each goes to the client's hooks and to its log, through the client's
 * {@link Observers}: a hook or logger that fails never changes a call's outcome, and is turned off for the client.
 * These four methods are the seams an observer (metrics, tracing) attaches to.
 *
 * @module
 */
import type { RequestContext } from "../errors.js";
import type { Drift } from "../schemas/parse.js";
import type { ResolvedConfig } from "./config.js";
import { type LineLevel, log } from "./log.js";
import { Observers } from "./observers.js";
import type { DriftEvent, Hooks, RequestEvent } from "./options.js";
import type { Redactor } from "./redact.js";

/** The events of one client. */
export class Events {
  readonly #config: ResolvedConfig;
  readonly #redactor: Redactor;
  /** Drift already written to the log, per response schema: `METHOD field`. */
  readonly #driftLogged = new WeakMap<object, Set<string>>();
  /** Whether anyone listens (hooks or a logger): events are only built then, off the hot path otherwise. */
  readonly observed: boolean;
  /** The guard every observer of the client runs behind (telemetry and `onUpdate` too). */
  readonly observers: Observers;

  constructor(config: ResolvedConfig, redactor: Redactor) {
    this.#config = config;
    this.#redactor = redactor;
    this.observed = config.hooks !== undefined || config.logger !== undefined;
    this.observers = new Observers((message) => this.#reportObserver(message), redactor.text);
  }

  /** An attempt is about to be sent. */
  request(event: RequestEvent): void {
    this.#emit("onRequest", event);
  }

  /** An attempt got an HTTP response, 2xx or not. */
  response(event: RequestEvent, status: number, durationMs: number, requestId: string | undefined): void {
    this.#emit("onResponse", { ...event, status, durationMs, requestId });
    this.#log("debug", `${event.method} ${event.path} -> ${status}`, {
      attempt: event.attempt,
      durationMs: Math.round(durationMs),
      requestId,
    });
  }

  /** A failed attempt is about to be retried, after `delayMs`. */
  retry(event: RequestEvent, delayMs: number, reason: string): void {
    this.#emit("onRetry", { ...event, delayMs, reason });
    this.#log("warn", `retrying ${event.method} ${event.path} in ${Math.round(delayMs)} ms (${reason})`, {
      attempt: event.attempt + 1,
    });
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
    this.#emit("onDrift", event);
    const logged = this.#driftLogged.get(schema) ?? new Set<string>();
    this.#driftLogged.set(schema, logged);
    if (logged.has(`${request.method} ${event.path}`)) return;
    logged.add(`${request.method} ${event.path}`);
    this.#log("warn", `response drift in ${event.operation} at ${event.path || "(body)"}`, {
      ...event,
    });
  }

  /** Calls the hook `name`, if given and still on. */
  #emit<N extends keyof Hooks>(name: N, event: Parameters<NonNullable<Hooks[N]>>[0]): void {
    const hook = this.#config.hooks?.[name] as ((event: unknown) => unknown) | undefined;
    if (hook) this.observers.run(hook, `hooks.${name}`, () => hook(event));
  }

  #log(level: LineLevel, message: string, fields: Record<string, unknown>): void {
    log(this.#config, this.observers, level, message, fields);
  }

  /**
   * A failed observer's warning, through the logger while it works. When the logger itself failed, the one line goes
   * to `console.warn`: there is nowhere else to say that the logs stopped.
   */
  #reportObserver(message: string): void {
    const { logger } = this.#config;
    if (logger === undefined) return;
    if (this.observers.isOn(logger)) this.#log("warn", message, {});
    else console.warn(`merchant-payments: ${message}`);
  }
}
