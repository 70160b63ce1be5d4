/**
 * The one guard between a call and the code that observes it: hooks, the logger, telemetry (the OpenTelemetry API
 * and the providers, exporters and processors behind it), `onDrift` and `onUpdate`. Nothing an observer does may
 * change what a call sends, returns or throws, or hold it up: each is run here, never awaited; a throw, or a
 * promise it returns that rejects, is reported once (a warning) and turns that observer off for the client.
 *
 * @module
 */

/** What the guard reports with: a warning line, the observer's failure already described and redacted. */
export type ObserverReport = (message: string) => void;

/** The observers of one client, and the ones its calls no longer run because they failed. */
export class Observers {
  /** Observers turned off: a hook or `onUpdate` function, the logger object, the client's telemetry token. */
  readonly #off = new WeakSet<object>();
  readonly #report: ObserverReport;
  readonly #redact: (text: string) => string;

  /** `report` writes the warning; `redact` takes the API key out of an observer's error message. */
  constructor(report: ObserverReport, redact: (text: string) => string) {
    this.#report = report;
    this.#redact = redact;
  }

  /** Whether `observer` still runs (it has not failed). */
  isOn(observer: object): boolean {
    return !this.#off.has(observer);
  }

  /**
   * Runs `work`: the observer's own code, or the SDK's code on its behalf. Returns what `work` returned, or
   * `undefined` when it threw or `observer` is off. Never throws and never waits: a promise `work` returns is left
   * to settle on its own, and its rejection counts as the observer's failure. `name` says which observer it is in
   * the warning (`hooks.onRequest`, `the logger`, `telemetry`, `onUpdate`).
   */
  run<T>(observer: object, name: string, work: () => T): T | undefined {
    if (this.#off.has(observer)) return undefined;
    try {
      const result = work();
      if (isThenable(result)) result.then(undefined, (error: unknown) => this.fail(observer, name, error));
      return result;
    } catch (error) {
      this.fail(observer, name, error);
      return undefined;
    }
  }

  /** Turns `observer` off for the client and reports why, once; `error` is what it threw, or a reason of ours. */
  fail(observer: object, name: string, error: unknown): void {
    if (this.#off.has(observer)) return;
    this.#off.add(observer);
    const why = typeof error === "string" ? error : `it threw ${this.#describe(error)}`;
    try {
      this.#report(`${name} is turned off for this client: ${why}. Calls go on without it.`);
    } catch {
      // The report is best effort: a failing report must not fail the call either.
    }
  }

  /** An error as `Name: message`, the key redacted; only the name of anything else. */
  #describe(error: unknown): string {
    if (error instanceof Error) return `${error.name}: ${this.#redact(error.message)}`;
    return error === null ? "null" : typeof error;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
