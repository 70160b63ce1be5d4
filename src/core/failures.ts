/**
 * How a failed attempt reads: the typed error the caller gets, whether another attempt may get a different
 * response, and the reason a retry event gives. The decision to retry is `shouldRetry`'s (`retry.ts`).
 *
 * @module
 */
import {
  type APIError,
  ConnectionError,
  type MerchantPaymentsError,
  type RequestContext,
  type RequestError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from "../errors.js";
import { abortErrorOf } from "./abort.js";
import { apiErrorFrom } from "./api-error.js";
import type { WireFailure } from "./http.js";
import { createRedactor } from "./redact.js";

/** An attempt that did not produce a usable response, and what another attempt may do about it. */
export interface FailedAttempt {
  error: MerchantPaymentsError;
  /** Another attempt may get a different response. */
  retryable: boolean;
  /** The service itself said it did not act (its own `rate_limited` body): even an unkeyed POST may repeat. */
  serviceDidNotAct: boolean;
  /** Why it would be retried, as a retry event says: an HTTP status, `rate_limited`, `timeout` or `connection`. */
  reason: string;
  retryAfterMs?: number | undefined;
}

/** How the wire adapters failed, read as a failed attempt: only a network failure or a timeout is retryable. */
export function wireFailureOf(
  failure: WireFailure,
  request: { method: string; path: string },
  call: { url: string; timeoutMs: number; signal: AbortSignal | undefined; maxResponseBytes: number },
): FailedAttempt {
  const base = { serviceDidNotAct: false };
  switch (failure.kind) {
    case "aborted":
      throw abortErrorOf(call.signal);
    case "timeout":
      return {
        ...base,
        error: new TimeoutError(request, call.timeoutMs),
        retryable: true,
        reason: "timeout",
      };
    case "too_large": {
      // The next response would be as large: not worth another download.
      const bytes = failure.limitBytes ?? call.maxResponseBytes;
      const error = new ResponseTooLargeError(request, { bytes }, undefined);
      return { ...base, error, retryable: false, reason: "too_large" };
    }
    case "unreadable":
      // The service answered: the status says what it did, however the body failed. Repeated only where safe.
      return {
        ...base,
        error: unreadableResponse(request, failure.status ?? 0),
        retryable: true,
        reason: "unreadable",
      };
    case "network": {
      const message = connectionMessage(request, call.url, failure.cause);
      const error = new ConnectionError(request, { cause: failure.cause }, message);
      return { ...base, error, retryable: true, reason: "connection" };
    }
  }
}

/** Error codes of a TLS handshake that met a server speaking plain HTTP (Node's, OpenSSL's, undici's). */
const TLS_TO_PLAIN_HTTP = /^(EPROTO|ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG)$/;
/** The codes along a cause chain (a fetch's `TypeError` holds the socket's error as its own cause). */
function causeCodes(cause: unknown): string[] {
  const codes: string[] = [];
  for (let at = cause, depth = 0; at != null && depth < 4; depth++) {
    const { code, cause: next } = Object(at) as { code?: unknown; cause?: unknown };
    if (typeof code === "string") codes.push(code);
    at = next;
  }
  return codes;
}

/**
 * "could not reach the service at host:port", with the scheme tried and what the socket said: the fix is then in the
 * message (a wrong port, https against a plain-http mock). The URL's host and port only: never a query or the key.
 */
function connectionMessage(request: RequestContext, url: string, cause: unknown): string {
  const { protocol, host } = new URL(url);
  const codes = causeCodes(cause);
  const tls = protocol === "https:";
  const head = `${request.method} ${request.path} failed: could not reach the service at ${host} (${tls ? "https: TLS was tried" : "plain http"})`;
  if (tls && codes.some((code) => TLS_TO_PLAIN_HTTP.test(code))) {
    return `${head}: the server answered without TLS; if it serves plain http (a local mock), use baseUrl http://${host}`;
  }
  return codes[0] === undefined ? head : `${head}: ${codes[0]}`;
}

/**
 * A non-2xx response. Only the service's own `rate_limited` body says it did not act on the request; a bare 429 or a
 * 5xx may come from a proxy that forwarded it first, so those repeat only when repeating is safe anyway.
 */
export function statusFailureOf(error: APIError, retryAfterMs: number | undefined): FailedAttempt {
  const serviceDidNotAct = error.code === "rate_limited";
  const rateLimited = serviceDidNotAct || error.status === 429;
  return {
    error,
    retryable: serviceDidNotAct || isRetryableStatus(error.status),
    serviceDidNotAct,
    reason: rateLimited ? "rate_limited" : String(error.status),
    retryAfterMs,
  };
}

/**
 * A response whose body could not be read whole: a ResponseValidationError for a 2xx or an unknown status (0: the
 * global fetch refused the answer's headers before showing it), the status's APIError else.
 */
function unreadableResponse(request: RequestContext, status: number): RequestError {
  if (status === 0 || isSuccessStatus(status)) {
    const issues = [{ path: "", message: "the body could not be read whole (cut off or undecodable)" }];
    return new ResponseValidationError({ request, status, rawBody: undefined, issues, requestId: undefined });
  }
  return apiErrorFrom({ status, text: "", requestId: undefined, retryAfterMs: undefined }, request, NO_KEY);
}

/** An empty body holds no key: nothing to redact. */
const NO_KEY = createRedactor(undefined);

/** A 2xx status: the service did what was asked, and the body is the operation's answer. */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status <= 299;
}

/**
 * HTTP statuses worth another attempt when repeating is safe (a GET, a PUT, a POST under an idempotency key): the
 * service (or a proxy) may response differently next time.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
