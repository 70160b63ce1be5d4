/**
 * The wire's only error, in a module of its own so that the default adapter (loaded with the first request) and
 * `http.ts` share it without importing each other.
 *
 * @module
 */

/**
 * How an attempt failed to produce a whole answer. `too_large`: the body passed `maxResponseBytes` (counted after
 * decompression); the connection was dropped and nothing more was buffered. Not worth retrying. `unreadable`: the
 * status arrived but the body could not be read whole (cut off, a coding that fails to decode, more than
 * {@link MAX_CONTENT_CODINGS} codings): the service did answer, so this is never "could not reach the service".
 */
export type WireFailureKind = "network" | "timeout" | "aborted" | "too_large" | "unreadable";

/** The most `Content-Encoding` codings decoded in one answer (as undici): more is a failure, not minutes of CPU. */
export const MAX_CONTENT_CODINGS = 5;

/**
 * The wire's only error: anything else an attempt rejects with (as `Http.failureOf` names it) is a bug. Never holds a
 * header or a body byte.
 */
export class WireFailure extends Error {
  override name = "WireFailure";
  readonly kind: WireFailureKind;
  /** With `too_large`: the limit that was passed, in bytes. */
  readonly limitBytes: number | undefined;
  /** With `unreadable`: the status that arrived. */
  readonly status: number | undefined;

  constructor(kind: WireFailureKind, options?: { cause?: unknown; limitBytes?: number; status?: number }) {
    super(`wire ${kind}`, options?.cause === undefined ? undefined : { cause: safeCause(options.cause) });
    this.kind = kind;
    this.limitBytes = options?.limitBytes;
    this.status = options?.status;
  }
}

/**
 * A copy of a low-level error that keeps only its name, message, code and (so copied) cause. Node's HTTP parser
 * errors carry `rawPacket` and undici's carry `data`: the raw bytes of a malformed answer, an echoed Api-Key header
 * included. Those never reach a `ConnectionError.cause`, a log line or an error tracker.
 */
export function safeCause(error: unknown, depth = 0): Error | undefined {
  if (error == null) return undefined;
  const { name, message, code, cause } = Object(error) as Record<string, unknown>;
  const copy = new Error(
    String(typeof error === "string" ? error : (message ?? "")),
    depth < 3 && cause != null ? { cause: safeCause(cause, depth + 1) } : undefined,
  );
  copy.name = typeof name === "string" ? name : "Error";
  if (code !== undefined) Object.assign(copy, { code: String(code) });
  return copy;
}
