/**
 * The transport-neutral request and answer of the mock, the answer builders, and the one body reader. Adapters (web
 * `Request`/`Response` for `fetch` and MSW, `node:http` for the server) convert to and from these.
 *
 * @module
 */

import { MockServiceError } from "./store/errors.js";

/** A request as the mock sees it. */
export interface RawRequest {
  /** Upper-case method. */
  method: string;
  /** Full URL. */
  url: URL;
  /** Reads a header (lower-case name); undefined when absent. */
  header(name: string): string | undefined;
  /** All headers as lower-case name/value pairs. */
  headerEntries(): Iterable<[string, string]>;
  /** Body text ("" when none). */
  body: string;
  /**
   * Where links in answers (`paymentLink`, `gatewayUrl`) point, when the adapter knows better than the service's
   * `baseUrl`: the server's public URL, or the origin the request's (allowed) `Host` names.
   */
  linkBase?: string;
}

/** An answer of the mock. */
export interface RawResponse {
  /** HTTP status. */
  status: number;
  /** Response headers (lower-case names). */
  headers: Record<string, string>;
  /** Body text. */
  body: string;
  /** True when the connection must be dropped without an answer. */
  drop?: boolean;
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): RawResponse {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** The answer of an error: `{ message, code, details? }`, with `Retry-After` on a 429 that says when. */
export function errorResponse(err: MockServiceError): RawResponse {
  const body: { message: string; code: string; details?: Record<string, unknown> } = {
    message: err.message,
    code: err.code,
  };
  if (err.details !== undefined) body.details = err.details;
  const retryAfter = err.details?.retryAfterSeconds;
  return json(
    err.status,
    body,
    err.status === 429 && typeof retryAfter === "number" ? { "retry-after": String(retryAfter) } : {},
  );
}

/** Whatever was thrown, as an answer: a {@link MockServiceError} as itself, anything else as a 500. */
export function answerOfError(err: unknown): RawResponse {
  if (err instanceof MockServiceError) return errorResponse(err);
  const message = err instanceof Error ? err.message : String(err);
  return errorResponse(new MockServiceError(500, "internal_error", `Mock internal error: ${message}`));
}

/** An HTML answer. */
export function html(status: number, body: string): RawResponse {
  return {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
    body,
  };
}

/** How {@link readJsonBody} treats a request. */
export interface BodyRules {
  /** The content types accepted: `application/json` only, or also `application/<x>+json`. */
  suffixJson: boolean;
  /** The 415 message. */
  unsupported: string;
  /** A body is required to be JSON even when empty (the control plane's CSRF rule). */
  typeEvenWhenEmpty: boolean;
}

/** The one body reader: the parsed JSON body, or undefined when there is none (415 / 400 otherwise). */
export function readJsonBody(req: RawRequest, rules: BodyRules): unknown {
  if (req.method === "GET") return undefined;
  if (req.body === "" && !rules.typeEvenWhenEmpty) return undefined;
  const type = req.header("content-type") ?? "";
  const accepted = rules.suffixJson ? /^application\/(.+\+)?json\b/i : /^application\/json\b/i;
  if (!accepted.test(type)) throw new MockServiceError(415, "unsupported_media_type", rules.unsupported);
  if (req.body === "") return undefined;
  try {
    return JSON.parse(req.body) as unknown;
  } catch (err) {
    throw new MockServiceError(400, "invalid_json", "The request body is not valid JSON.", {
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

/** The `Request` that `fetch(input, init)` would send. */
export function toRequest(input: Request | string | URL, init: RequestInit | undefined): Request {
  const plain = init === undefined || Object.keys(init).length === 0;
  return input instanceof Request && plain ? input : new Request(input, init);
}

/** Converts a web `Request` into a {@link RawRequest}. */
export async function fromWebRequest(request: Request): Promise<RawRequest> {
  const body = request.body ? await request.text() : "";
  const headers = request.headers;
  return {
    method: request.method.toUpperCase(),
    url: new URL(request.url),
    header: (name) => headers.get(name) ?? undefined,
    headerEntries: () => headers.entries(),
    body,
  };
}

/** Converts a {@link RawResponse} into a web `Response` (`Response.error()` for a dropped connection). */
export function toWebResponse(res: RawResponse): Response {
  if (res.drop) return Response.error();
  return new Response(res.body === "" ? null : res.body, { status: res.status, headers: res.headers });
}
