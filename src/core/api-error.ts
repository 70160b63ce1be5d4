import {
  APIError,
  type APIErrorInit,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type ErrorBody,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from "../errors.js";
import { boundedCopy } from "../model/text.js";
import { isRecord } from "../validate/issues.js";
import { parseJson } from "../validate/json.js";
import type { Redactor } from "./redact.js";

/** How much of a non-JSON error body an error keeps (enough to recognise a proxy's page). */
const RAW_BODY_LIMIT = 2048;

/** What the transport knows about a non-2xx answer when it builds its error. */
export interface ErrorAnswer {
  status: number;
  /** The body as text (empty for none). */
  text: string;
  /** The answer's request id, already redacted. */
  requestId: string | undefined;
  /** A valid `Retry-After`, in milliseconds, already capped by `retry.maxRetryAfterMs`. */
  retryAfterMs: number | undefined;
}

/**
 * Builds the typed error for a non-2xx answer. The class comes from the `code` first — the spec gives no status for
 * `rate_limited` and `settlement_asset_conflict` — and from the status family otherwise. Codes the SDK does not
 * know pass through as strings. Every string kept from the body has the API key redacted.
 */
export function apiErrorFrom(
  answer: ErrorAnswer,
  request: APIErrorInit["request"],
  redactor: Redactor,
): APIError {
  const { status } = answer;
  const body = parseErrorBody(answer.text, redactor);
  const init: APIErrorInit = {
    status,
    body,
    // Redacted whole, then cut: cut first, a key straddling the cut would leave a piece no pattern knows. A copy, so
    // that a kept error does not keep the whole body.
    rawBody: body ? undefined : boundedCopy(redactor.text(answer.text), RAW_BODY_LIMIT) || undefined,
    requestId: answer.requestId,
    request,
  };
  const code = body?.code;
  if (code === "rate_limited" || status === 429) {
    return new RateLimitError({ ...init, retryAfterMs: answer.retryAfterMs });
  }
  if (code === "settlement_asset_conflict" || status === 409) return new ConflictError(init);
  switch (status) {
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
  }
  if (status >= 500) return new InternalServerError(init);
  if (status >= 400) return new BadRequestError(init);
  return new APIError(init);
}

/**
 * The spec's error body, redacted, or `undefined` when the text is not one (HTML from a proxy, empty, other JSON).
 * A body nested deeper than the bound still names its code and message (flat strings); its `details` are not kept.
 */
function parseErrorBody(text: string, redactor: Redactor): ErrorBody | undefined {
  const parsed = parseJson(text);
  const tooDeep = parsed.kind === "too_deep";
  const json = parsed.kind === "json" ? parsed.value : tooDeep ? parseDiscarded(text) : undefined;
  if (!isRecord(json)) return undefined;
  const { message, code, details } = json;
  if (typeof code !== "string") return undefined;
  const body: ErrorBody = {
    code: redactor.text(code),
    message: redactor.text(typeof message === "string" ? message : code),
  };
  if (!tooDeep && isRecord(details)) body.details = redactor.value(details) as Record<string, unknown>;
  return body;
}

/** JSON.parse for a value read only for its top-level strings and then dropped; `undefined` when not JSON. */
function parseDiscarded(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
