/**
 * Every error the SDK throws is a {@link MerchantPaymentsError}. None of them ever holds the API key:
 * errors carry the method, the path (no host, no query) and what the service said (with the key redacted), never
 * request headers. Errors about one request share {@link RequestError}: `method`, `path`, `requestId`.
 *
 * @module
 */
import { hasErrorBrand, isOfKind, markKinds } from "./error-brand.js";
import { describeStatus, summaryOf } from "./error-messages.js";

/** What the service says in an error body (`message`, `code`, optional `details`). */
export interface ErrorBody {
  /** Human-readable description of the problem. */
  message: string;
  /** Machine-readable error code, for example `not_found` or `rate_limited`. */
  code: string;
  /** Extra structured information about the error, when the service gives any. */
  details?: Record<string, unknown>;
}

/** What `JSON.stringify(error)` gives: what a log may hold, never a credential. */
export interface MerchantPaymentsErrorJSON {
  /** The class, e.g. `RateLimitError`. */
  name: string;
  /** The error's message. */
  message: string;
  /** The service's error code (APIError), or the SDK's own reason where the class has one. */
  code?: string | undefined;
  /** The request id the service returned, when a response carried one. */
  requestId?: string | undefined;
  /** The HTTP status of the response, for an error about one. */
  status?: number | undefined;
  /** The HTTP method of the request, for an error about one. */
  method?: string | undefined;
  /** The path of the request (no host, no query), for an error about one. */
  path?: string | undefined;
  /** The first offending field, for an input error. */
  field?: string | undefined;
}

/**
 * Base class of every error thrown by the SDK. `instanceof` works across copies of the package (ESM and CommonJS
 * in one app): the check reads a brand, not only the prototype chain. See also {@link isMerchantPaymentsError}.
 */
export class MerchantPaymentsError extends Error {
  /** Always "MerchantPaymentsError". */
  override name = "MerchantPaymentsError";

  /**
   * True for an instance of this class (or a subclass) from any copy of the package: from another copy, by the
   * registered symbol of its kind, never by its name (`error-brand.ts`).
   */
  static override [Symbol.hasInstance]<C extends abstract new (...args: never) => unknown>(
    this: C,
    value: unknown,
  ): value is InstanceType<C> {
    // `this` is the class on the right of `instanceof` (a subclass included), not MerchantPaymentsError itself.
    return Function.prototype[Symbol.hasInstance].call(this, value) || isOfKind(this, value);
  }

  /** What `JSON.stringify(error)` shows: name, message, and the code, request id and request where there are any. */
  toJSON(): MerchantPaymentsErrorJSON {
    const fields = this as Partial<Record<keyof MerchantPaymentsErrorJSON, unknown>>;
    const json: MerchantPaymentsErrorJSON = { name: this.name, message: this.message };
    for (const key of ["code", "requestId", "status", "method", "path", "field"] as const) {
      const value = fields[key];
      if (typeof value === "string" || typeof value === "number") Object.assign(json, { [key]: value });
    }
    return json;
  }
}

/**
 * True for any error the SDK throws, whichever copy of the package threw it (ESM and CommonJS loaded side by side).
 */
export function isMerchantPaymentsError(value: unknown): value is MerchantPaymentsError {
  return hasErrorBrand(value);
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
  readonly field: string;
  /** Every problem found in the input, the first one included. */
  readonly issues: readonly InputIssue[];

  constructor(issues: readonly InputIssue[]) {
    const first = issues[0] ?? { field: "input", message: "input is invalid" };
    super(summaryOf(first, issues));
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

/**
 * Base of the errors about one request (a response, no response, an unreadable response): where it was going, and the
 * request id the service gave, to quote in a support ticket.
 */
export class RequestError extends MerchantPaymentsError {
  /** Always "RequestError". */
  override name = "RequestError";
  /** The HTTP method of the request, e.g. `GET` or `POST`. */
  readonly method: string;
  /** The path of the request, without host or query string. */
  readonly path: string;
  /** The request id the service returned in a response header, when there was a response that carried one. */
  readonly requestId: string | undefined;

  constructor(
    message: string,
    request: RequestContext,
    requestId: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.method = request.method;
    this.path = request.path;
    this.requestId = requestId;
  }
}

/** What an {@link APIError} is built from. */
export interface APIErrorInit {
  /** The HTTP status of the response. */
  status: number;
  /** The service's error body, when the response held one. */
  body: ErrorBody | undefined;
  /** The body as text when it was not the service's error shape, cut to 2 KB. */
  rawBody?: string | undefined;
  /** The request id the response carried. */
  requestId: string | undefined;
  /** Where the request was going. */
  request: RequestContext;
}

/** The service answered with a non-2xx status. Subclasses narrow it by status family. */
export class APIError extends RequestError {
  /** Always "APIError". */
  override name = "APIError";
  /** The HTTP status code of the response. */
  readonly status: number;
  /** The service's machine-readable code, passed through as is (unknown codes included); `undefined` when the body had none. */
  readonly code: string | undefined;
  /** Extra structured information from the error body; `undefined` when the body had none. */
  readonly details: Record<string, unknown> | undefined;
  /** The raw response body when it was not the service's error shape (an HTML page from a proxy, say), cut to 2 KB. */
  readonly rawBody: string | undefined;

  constructor(init: APIErrorInit) {
    const { status, body, request } = init;
    const what = body ? `${body.code}: ${body.message}` : describeStatus(status);
    super(`${request.method} ${request.path} failed with ${status} (${what})`, request, init.requestId);
    this.status = status;
    this.code = body?.code;
    this.details = body?.details;
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
/**
 * 429, or a `rate_limited` body whatever its status. Retried automatically when repeating is safe; thrown once
 * retries are spent. A POST without an idempotency key is repeated only after the service's own `rate_limited`
 * body: a bare 429 may come from a proxy that already forwarded the request.
 */
export class RateLimitError extends APIError {
  /** Always "RateLimitError". */
  override name = "RateLimitError";
  /** How long the service asked to wait (a valid `Retry-After`), in milliseconds, capped by `retry.maxRetryAfterMs`. */
  readonly retryAfterMs: number | undefined;
  constructor(init: APIErrorInit & { retryAfterMs?: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}
/** 5xx: the service failed. Retried automatically when repeating is safe; thrown once retries are spent. */
export class InternalServerError extends APIError {
  /** Always "InternalServerError". */
  override name = "InternalServerError";
}
/** Any other 4xx: the service refused the request as sent. */
export class BadRequestError extends APIError {
  /** Always "BadRequestError". */
  override name = "BadRequestError";
}

/**
 * The request never got an HTTP response (DNS, refused or reset connection, a body cut off, or no response in time:
 * {@link TimeoutError}). Worth trying again later: retried automatically when repeating is safe.
 */
export class ConnectionError extends RequestError {
  /** Always "ConnectionError". */
  override name = "ConnectionError";
  /** `message`: how it failed, when more is known than "could not reach the service". */
  constructor(request: RequestContext, options?: { cause?: unknown }, message?: string) {
    super(
      message ?? `${request.method} ${request.path} failed: could not reach the service`,
      request,
      undefined,
      options,
    );
  }
}

/** The request took longer than `timeoutMs` (on its last attempt). A kind of {@link ConnectionError}. */
export class TimeoutError extends ConnectionError {
  /** Always "TimeoutError". */
  override name = "TimeoutError";
  /** The time allowed for the attempt, in milliseconds. */
  readonly timeoutMs: number;
  constructor(request: RequestContext, timeoutMs: number) {
    super(request, undefined, `${request.method} ${request.path} timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The response was bigger than the client reads: its body passed `maxResponseBytes` (counted after decompression;
 * the connection was dropped and nothing more was read), or its JSON nested deeper than {@link MAX_JSON_DEPTH}
 * levels. Not retried: the next response would be as big.
 */
export class ResponseTooLargeError extends RequestError {
  /** Always "ResponseTooLargeError". */
  override name = "ResponseTooLargeError";
  /** The byte limit that was passed (`maxResponseBytes`), when the body was too long. */
  readonly limitBytes: number | undefined;
  /** The nesting limit that was passed ({@link MAX_JSON_DEPTH}), when the JSON nested too deep. */
  readonly limitDepth: number | undefined;
  constructor(
    request: RequestContext,
    limit: { bytes: number } | { depth: number },
    requestId: string | undefined,
  ) {
    const what =
      "bytes" in limit ? `is larger than ${limit.bytes} bytes` : `nests deeper than ${limit.depth} levels`;
    super(`${request.method} ${request.path} answered with a body that ${what}`, request, requestId);
    this.limitBytes = "bytes" in limit ? limit.bytes : undefined;
    this.limitDepth = "depth" in limit ? limit.depth : undefined;
  }
}

/** The deepest JSON nesting the SDK reads in a response; deeper is a {@link ResponseTooLargeError}. */
export const MAX_JSON_DEPTH = 64;

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

/**
 * A 2xx response whose body is not what the interface promises, or could not be read whole. Keeps the raw body and
 * the issues. The service answered: the request was received (and may have been acted on). A body that arrived whole
 * is never retried (the next answer would be the same); one cut off in transit is a lost answer, retried first where
 * repeating is safe (GET, PUT, and a POST under its one idempotency key, which the service replays).
 */
export class ResponseValidationError extends RequestError {
  /** Always "ResponseValidationError". */
  override name = "ResponseValidationError";
  /** The HTTP status code of the response (2xx), or 0 when the runtime's `fetch` refused it before its status. */
  readonly status: number;
  /** The body as received (the API key redacted): parsed JSON where it was JSON, the text otherwise. */
  readonly rawBody: unknown;
  /** Every way the body differs from what the interface promises. */
  readonly issues: readonly ResponseIssue[];
  constructor(init: {
    request: RequestContext;
    status: number;
    rawBody: unknown;
    issues: readonly ResponseIssue[];
    requestId: string | undefined;
  }) {
    const first = init.issues[0];
    const where = first ? `${first.path || "(body)"}: ${first.message}` : "unexpected body";
    super(
      `${init.request.method} ${init.request.path} returned an unexpected body (${where})`,
      init.request,
      init.requestId,
    );
    this.status = init.status;
    this.rawBody = init.rawBody;
    this.issues = init.issues;
  }
}

/** Why a checkout return URL was refused before anything was asked of the service. */
export type CheckoutReturnProblem = "missing_payment_id" | "duplicated_payment_id" | "payment_id_mismatch";

/** The buyer's return to `successUrl`/`errorUrl` cannot be trusted as it stands. Do not fulfil. */
export class CheckoutReturnError extends MerchantPaymentsError {
  /** Always "CheckoutReturnError". */
  override name = "CheckoutReturnError";
  /** Which check the return failed. */
  readonly problem: CheckoutReturnProblem;
  constructor(problem: CheckoutReturnProblem, message: string) {
    super(message);
    this.problem = problem;
  }
}

/** `waitForFinal` (or `watch`) reached its `maxWaitMs` before the payment reached a final status. */
export class PollTimeoutError extends MerchantPaymentsError {
  /** Always "PollTimeoutError". */
  override name = "PollTimeoutError";
  /** The payment that was being waited on. */
  readonly paymentId: string;
  /** The last status seen, if any status was seen. */
  readonly lastStatus: string | undefined;
  /** The overall deadline that passed, in milliseconds. */
  readonly maxWaitMs: number;
  constructor(paymentId: string, maxWaitMs: number, lastStatus: string | undefined) {
    super(
      `Payment ${paymentId} was not final after ${maxWaitMs} ms (last status: ${lastStatus ?? "none seen"})`,
    );
    this.paymentId = paymentId;
    this.lastStatus = lastStatus;
    this.maxWaitMs = maxWaitMs;
  }
}

markKinds(MerchantPaymentsError, {
  MerchantPaymentsError,
  ConfigurationError,
  InputValidationError,
  RequestError,
  APIError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  InternalServerError,
  BadRequestError,
  ConnectionError,
  TimeoutError,
  ResponseTooLargeError,
  UserAbortError,
  ResponseValidationError,
  CheckoutReturnError,
  PollTimeoutError,
});
