import { assertId } from "../schemas/common.js";

/** Ids the service issues (`pay_…`, `mrch_…`): nothing in them to encode or refuse. */
const PLAIN_ID = /^[A-Za-z0-9_-]+$/;

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
