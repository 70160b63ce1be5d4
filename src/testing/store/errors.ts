/**
 * The one error type of the mock's model and controls.
 *
 * @module
 */

/**
 * A rule of the mock was broken. Over HTTP it becomes an error body `{ message, code, details? }`
 * with {@link MockServiceError.status}; from a control method it is thrown as is.
 */
export class MockServiceError extends Error {
  /** Always "MockServiceError". */
  override name = "MockServiceError";
  /** HTTP status used when the error is answered over HTTP. */
  readonly status: number;
  /** Machine-readable code (the `code` of the error body). */
  readonly code: string;
  /** Optional details (the `details` of the error body). */
  readonly details: Record<string, unknown> | undefined;

  /** Creates the error. */
  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}
