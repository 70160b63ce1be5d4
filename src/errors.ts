/**
 * Every error the SDK throws is a {@link MerchantPaymentsError}. None of them ever holds the API key:
 * errors carry the method, the path (no host, no query) and what the service said, never request headers.
 *
 * Fields are `declare`d: the constructors assign them, and a plain class field would be defined a second time.
 *
 * @module
 */

/** What the service says in an error body (`message`, `code`, optional `details`). */
export interface ErrorBody {
  /** Human-readable description of the problem. */
  message: string;
  /** Machine-readable error code, for example `not_found` or `rate_limited`. */
  code: string;
  /** Extra structured information about the error, when the service gives any. */
  details?: Record<string, unknown>;
}

/** Base class of every error thrown by the SDK. */
export class MerchantPaymentsError extends Error {
  /** Always "MerchantPaymentsError". */
  override name = "MerchantPaymentsError";
}

/** The client was constructed with a missing or malformed option. Thrown by the constructor. */
export class ConfigurationError extends MerchantPaymentsError {
  /** Always "ConfigurationError". */
  override name = "ConfigurationError";
}

/** One problem found in an input, with the dotted path of the field it concerns. */
export interface InputIssue {
  /** Dotted path of the offending field, for example `amount.value` or `settlements.0.destination`. */
  field: string;
  /** A sentence that names the field, e.g. `amount.value must be a non-negative integer …`. */
  message: string;
}

/** An argument was invalid. Nothing was sent to the service. */
export class InputValidationError extends MerchantPaymentsError {
  /** Always "InputValidationError". */
  override name = "InputValidationError";
  /** The first offending field, for example `amount.value`. */
  declare readonly field: string;
  /** Every problem found in the input, the first one included. */
  declare readonly issues: readonly InputIssue[];

  constructor(issues: readonly InputIssue[]) {
    const first = issues[0] ?? { field: "input", message: "input is invalid" };
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problems)` : "";
    super(`${first.message}${more}`);
    this.field = first.field;
    this.issues = issues;
  }
}

/** Where a failed request was going: enough to find it in logs, never a credential. */
export interface RequestContext {
  /** The HTTP method, e.g. `GET` or `POST`. */
  method: string;
  /** The path of the request, without host or query string. */
  path: string;
}

/** The service answered with a non-2xx status. Subclasses narrow it by status family. */
export class APIError extends MerchantPaymentsError {
  /** Always "APIError". */
  override name = "APIError";
  /** The HTTP status code of the response. */
  declare readonly status: number;
  /** The service's machine-readable code, passed through as is (unknown codes included); `undefined` when the body had none. */
  declare readonly code: string | undefined;
  /** Extra structured information from the error body; `undefined` when the body had none. */
  declare readonly details: Record<string, unknown> | undefined;
  /** The request id the service returned in a response header, when it did. */
  declare readonly requestId: string | undefined;
  /** The HTTP method of the failed request. */
  declare readonly method: string;
  /** The path of the failed request, without host or query string. */
  declare readonly path: string;
  /** The raw response body when it was not the service's error shape (an HTML page from a proxy, say), cut to 2 KB. */
  declare readonly rawBody: string | undefined;

  constructor(init: {
    status: number;
    body: ErrorBody | undefined;
    rawBody?: string | undefined;
    requestId: string | undefined;
    request: RequestContext;
  }) {
    const { status, body, request } = init;
    const what = body ? `${body.code}: ${body.message}` : describeStatus(status);
    super(`${request.method} ${request.path} failed with ${status} (${what})`);
    this.status = status;
    this.code = body?.code;
    this.details = body?.details;
    this.requestId = init.requestId;
    this.method = request.method;
    this.path = request.path;
    this.rawBody = init.rawBody;
  }
}

/** 401: the API key (or App-Id/Client-Id) is missing or invalid. `code` is `missing_api_key` or `invalid_api_key`. */
export class AuthenticationError extends APIError {
  /** Always "AuthenticationError". */
  override name = "AuthenticationError";
}
/** 403: a valid key without permission for this account or merchant. */
export class PermissionDeniedError extends APIError {
  /** Always "PermissionDeniedError". */
  override name = "PermissionDeniedError";
}
/** 404 (`not_found`): the merchant, payment or settlement does not exist, or not in this mode (test vs live). */
export class NotFoundError extends APIError {
  /** Always "NotFoundError". */
  override name = "NotFoundError";
}
/** 409, or a `settlement_asset_conflict` body whatever its status: the resource already exists. */
export class ConflictError extends APIError {
  /** Always "ConflictError". */
  override name = "ConflictError";
}
/** 429, or a `rate_limited` body whatever its status. Retried automatically; thrown once retries are spent. */
export class RateLimitError extends APIError {
  /** Always "RateLimitError". */
  override name = "RateLimitError";
  /** How long the service asked to wait (from `Retry-After`), in milliseconds, when it said. */
  declare readonly retryAfterMs: number | undefined;
  constructor(init: ConstructorParameters<typeof APIError>[0] & { retryAfterMs?: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}
/** 5xx: the service failed. Retried automatically; thrown once retries are spent. */
export class InternalServerError extends APIError {
  /** Always "InternalServerError". */
  override name = "InternalServerError";
}
/** Any other 4xx: the service refused the request as sent. */
export class BadRequestError extends APIError {
  /** Always "BadRequestError". */
  override name = "BadRequestError";
}

/** The request never got an HTTP answer (DNS, refused or reset connection, a body cut off). */
export class ConnectionError extends MerchantPaymentsError {
  /** Always "ConnectionError". */
  override name = "ConnectionError";
  /** The HTTP method of the request that got no answer. */
  declare readonly method: string;
  /** The path of the request that got no answer, without host or query string. */
  declare readonly path: string;
  constructor(request: RequestContext, options?: { cause?: unknown }) {
    super(`${request.method} ${request.path} failed: could not reach the service`, options);
    this.method = request.method;
    this.path = request.path;
  }
}

/** The request took longer than `timeoutMs` (on its last attempt). */
export class TimeoutError extends MerchantPaymentsError {
  /** Always "TimeoutError". */
  override name = "TimeoutError";
  /** The HTTP method of the request that timed out. */
  declare readonly method: string;
  /** The path of the request that timed out, without host or query string. */
  declare readonly path: string;
  /** The time allowed for the attempt, in milliseconds. */
  declare readonly timeoutMs: number;
  constructor(request: RequestContext, timeoutMs: number) {
    super(`${request.method} ${request.path} timed out after ${timeoutMs} ms`);
    this.method = request.method;
    this.path = request.path;
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's `AbortSignal` fired. Nothing more will be sent for this call. */
export class UserAbortError extends MerchantPaymentsError {
  /** Always "UserAbortError". */
  override name = "UserAbortError";
}

/** One problem found in a response body, with the dotted path of the field. */
export interface ResponseIssue {
  /** Dotted path of the offending field, for example `settlements.crypto.0.asset`; empty for the body as a whole. */
  path: string;
  /** What is wrong with it, e.g. `is required` or `must be a string, got null`. */
  message: string;
}

/** A 2xx response whose body is not what the interface promises. Keeps the raw body and the issues. */
export class ResponseValidationError extends MerchantPaymentsError {
  /** Always "ResponseValidationError". */
  override name = "ResponseValidationError";
  /** The HTTP method of the request. */
  declare readonly method: string;
  /** The path of the request, without host or query string. */
  declare readonly path: string;
  /** The HTTP status code of the response (2xx). */
  declare readonly status: number;
  /** The body as received: parsed JSON where it was JSON, the text otherwise. */
  declare readonly rawBody: unknown;
  /** Every way the body differs from what the interface promises. */
  declare readonly issues: readonly ResponseIssue[];
  /** The request id the service returned in a response header, when it did. */
  declare readonly requestId: string | undefined;
  constructor(init: {
    request: RequestContext;
    status: number;
    rawBody: unknown;
    issues: readonly ResponseIssue[];
    requestId: string | undefined;
  }) {
    const first = init.issues[0];
    const where = first ? `${first.path || "(body)"}: ${first.message}` : "unexpected body";
    super(`${init.request.method} ${init.request.path} returned an unexpected body (${where})`);
    this.method = init.request.method;
    this.path = init.request.path;
    this.status = init.status;
    this.rawBody = init.rawBody;
    this.issues = init.issues;
    this.requestId = init.requestId;
  }
}

/** Why a checkout return URL was refused before anything was asked of the service. */
export type CheckoutReturnProblem = "missing_payment_id" | "duplicated_payment_id" | "payment_id_mismatch";

/** The buyer's return to `successUrl`/`errorUrl` cannot be trusted as it stands. Do not fulfil. */
export class CheckoutReturnError extends MerchantPaymentsError {
  /** Always "CheckoutReturnError". */
  override name = "CheckoutReturnError";
  /** Which check the return failed. */
  declare readonly problem: CheckoutReturnProblem;
  constructor(problem: CheckoutReturnProblem, message: string) {
    super(message);
    this.problem = problem;
  }
}

/** `waitForFinal` reached its deadline before the payment reached a final status. */
export class PollTimeoutError extends MerchantPaymentsError {
  /** Always "PollTimeoutError". */
  override name = "PollTimeoutError";
  /** The payment that was being waited on. */
  declare readonly paymentId: string;
  /** The last status seen, if any status was seen. */
  declare readonly lastStatus: string | undefined;
  constructor(paymentId: string, timeoutMs: number, lastStatus: string | undefined) {
    super(
      `Payment ${paymentId} was not final after ${timeoutMs} ms (last status: ${lastStatus ?? "none seen"})`,
    );
    this.paymentId = paymentId;
    this.lastStatus = lastStatus;
  }
}

function describeStatus(status: number): string {
  if (status >= 500) return "server error";
  // Following a redirect would carry the API key to wherever it points, so the SDK never does.
  if (status >= 300 && status < 400) return "redirect not followed";
  return "no error body";
}
