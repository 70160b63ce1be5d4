/**
 * The rules a header must meet before the SDK sends it: fetch's own rules for names and values, and the names a
 * caller may not set (the transport owns them, or setting them would corrupt the request). One place, used by the
 * client's `defaultHeaders`, per-call `headers` and `versionHeader`.
 *
 * @module
 */

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[\w!#$%&'*+.^`|~-]+$/;

/**
 * A header value as every fetch sends it: no control character but a tab inside (CR, LF and NUL break the message;
 * DEL and the other C0 controls are refused by undici, and would surface as a network failure), no leading or
 * trailing whitespace (fetch would strip it), and only Latin-1 characters (a `Headers` object refuses others).
 */
// oxlint-disable-next-line no-control-regex -- the control characters are what it refuses.
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

/** Names that carry the credentials: only the client's own credentials may set them. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(["api-key", "app-id", "client-id"]);

/**
 * Names a caller may not set: the credentials, the headers the SDK computes per call, and the ones that describe the
 * message's framing (a wrong `content-length` stalls the request until its deadline).
 */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  ...CREDENTIAL_HEADERS,
  "merchant-id",
  "idempotency-key",
  "content-type",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "host",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
]);

/** What is wrong with a header name, or `undefined`. */
export function headerNameProblem(name: unknown): string | undefined {
  return typeof name === "string" && HEADER_NAME.test(name)
    ? undefined
    : "must be a header name (letters, digits and !#$%&'*+.^`|~-)";
}

/** What is wrong with a header value, or `undefined`. */
export function headerValueTextProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return "must be a string";
  // oxlint-disable-next-line no-control-regex -- Latin-1 is what fetch's Headers accept.
  if (CONTROL.test(value) || /^[\t ]|[\t ]$/.test(value) || !/^[\x00-\xff]*$/.test(value)) {
    return "must be Latin-1 text without control characters (line breaks, NUL, DEL…) or surrounding whitespace";
  }
  return undefined;
}
