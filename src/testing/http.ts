/**
 * The transport-neutral request/response shapes of the mock core, and answer helpers. Adapters
 * (web `Request`/`Response`, MSW, `node:http`) convert to and from these.
 *
 * @module
 */

import type { MockServiceError } from "./model/errors.js";

/** A request as the mock core sees it. */
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
}

/** An answer of the mock core. */
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

/** An error answer with the body `{ message, code, details? }`. */
export function errorResponse(err: MockServiceError, headers: Record<string, string> = {}): RawResponse {
  const body: { message: string; code: string; details?: Record<string, unknown> } = {
    message: err.message,
    code: err.code,
  };
  if (err.details !== undefined) body.details = err.details;
  return json(err.status, body, headers);
}

/** An HTML answer. */
export function html(status: number, body: string): RawResponse {
  return {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
    body,
  };
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
