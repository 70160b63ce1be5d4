/**
 * Identifiers that go into a request path: one check and one encoder, so that no id can change the path.
 *
 * @module
 */
import { invalidInput } from "./issues.js";

/** Ids the service issues (`pay_…`, `mrch_…`): nothing in them to encode or refuse. */
const PLAIN_ID = /^[A-Za-z0-9_-]+$/;

/**
 * What is wrong with an identifier used in a request path (merchant, payment or settlement id), or `undefined`: it
 * must be a non-empty string without whitespace or control characters, and not `.` or `..` (which a URL would
 * resolve away).
 */
export function idProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return "must be a non-empty string";
  // A lone UTF-16 surrogate cannot be percent-encoded (encodeURIComponent throws a URIError).
  if (/[\s\p{Cc}\p{Cs}]/u.test(value) || value === "." || value === "..") {
    return 'must be an id: no whitespace, control characters or lone surrogates, and not "." or ".."';
  }
  return undefined;
}

/**
 * Checks an identifier that goes into a request path, before anything is sent.
 *
 * @param field The name reported in the error, for example `merchantId`.
 * @param value The value to check.
 * @throws {InputValidationError} When `value` is not a usable identifier.
 */
export function assertId(field: string, value: unknown): asserts value is string {
  const problem = idProblem(value);
  if (problem !== undefined) throw invalidInput(field, problem);
}

/**
 * Encodes an id as one path segment, so that no id can change the path: `/`, `?`, `#` and `%` are escaped, and
 * empty ids, `.` and `..` (which URL parsing resolves as directory steps even when percent-encoded) are refused
 * with an `InputValidationError` naming `field`.
 */
export function pathSegment(field: string, id: unknown): string {
  if (typeof id === "string" && PLAIN_ID.test(id)) return id;
  assertId(field, id);
  return encodeURIComponent(id);
}
