import { assertId } from "../schemas/common.js";

/**
 * Encodes an id as one path segment, so that no id can change the path: `/`, `?`, `#` and `%` are escaped, and
 * empty ids, `.` and `..` (which URL parsing resolves as directory steps even when percent-encoded) are refused
 * with an `InputValidationError` naming `field`.
 */
export function pathSegment(field: string, id: unknown): string {
  assertId(field, id);
  return encodeURIComponent(id);
}
