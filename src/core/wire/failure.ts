/**
 * The wire's only error, in a module of its own so that the default adapter (loaded with the first request) and
 * `http.ts` share it without importing each other.
 *
 * @module
 */

/**
 * How an attempt failed to produce a whole answer. `too_large`: the body passed `maxResponseBytes` (counted after
 * decompression); the connection was dropped and nothing more was buffered. Not worth retrying.
 */
export type WireFailureKind = "network" | "timeout" | "aborted" | "too_large";

/** The wire's only error: anything else thrown from `Http.send` is a bug. Never holds a header. */
export class WireFailure extends Error {
  override name = "WireFailure";
  readonly kind: WireFailureKind;
  /** With `too_large`: the limit that was passed, in bytes. */
  readonly limitBytes: number | undefined;

  constructor(kind: WireFailureKind, options?: { cause?: unknown; limitBytes?: number }) {
    super(`wire ${kind}`, options);
    this.kind = kind;
    this.limitBytes = options?.limitBytes;
  }
}
