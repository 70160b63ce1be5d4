import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type ErrorBody,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type RequestContext,
} from "../errors.js";
import { isRecord } from "../validate/issues.js";
import { parseRetryAfter } from "./retry.js";

/** Headers that may carry the service's request id; the spec does not name one, so the common ones are read. */
const REQUEST_ID_HEADERS = ["request-id", "x-request-id"];
/** How much of a non-JSON error body an error keeps (enough to recognise a proxy's page). */
const RAW_BODY_LIMIT = 2048;

/** The request id of a response, when it carries one. */
export function requestIdOf(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value) return value;
  }
  return undefined;
}

/**
 * Builds the typed error for a non-2xx answer. The class comes from the `code` first — the spec gives no status for
 * `rate_limited` and `settlement_asset_conflict` — and from the status family otherwise. Codes the SDK does not
 * know pass through as strings.
 */
export function apiErrorFrom(
  response: { status: number; headers: Headers },
  text: string,
  request: RequestContext,
): APIError {
  const body = parseErrorBody(text);
  const init = {
    status: response.status,
    body,
    rawBody: body ? undefined : text.slice(0, RAW_BODY_LIMIT) || undefined,
    requestId: requestIdOf(response.headers),
    request,
  };
  const code = body?.code;
  if (code === "rate_limited" || response.status === 429) {
    return new RateLimitError({
      ...init,
      retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
    });
  }
  if (code === "settlement_asset_conflict" || response.status === 409) return new ConflictError(init);
  switch (response.status) {
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
  }
  if (response.status >= 500) return new InternalServerError(init);
  if (response.status >= 400) return new BadRequestError(init);
  return new APIError(init);
}

/** The spec's error body, or `undefined` when the text is not one (HTML from a proxy, empty, other JSON). */
function parseErrorBody(text: string): ErrorBody | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== "object" || json === null) return undefined;
  const { message, code, details } = json as Record<string, unknown>;
  if (typeof code !== "string") return undefined;
  return {
    code,
    message: typeof message === "string" ? message : code,
    ...(isRecord(details) ? { details } : {}),
  };
}
