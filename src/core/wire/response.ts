/**
 * The one shape both fetches under ky answer with: a global `Response` (ky only accepts the global class) for a body
 * already read whole and counted (a body read before `fetch` resolves lets ky's `timeout` cover it).
 *
 * The body's text goes to the transport beside the Response, not inside it: ky never reads a body when
 * `throwHttpErrors` is off and no hook is set (the SDK's settings), so a body stream that only the transport would
 * read back would be built, encoded to bytes and decoded again on every request for nothing. The Response ky gets
 * has no body; {@link bodyTextOf} gives its text.
 *
 * @module
 */
import { WireFailure } from "./failure.js";

/** Statuses whose Response must have a null body. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/**
 * Where an answer the adapters made keeps its whole text: a property of the Response itself, under a symbol of this
 * module. A WeakMap entry per answer cost more: an answer that outlived a minor collection (one in flight at 64 at a
 * time) kept its entry until a major one, and every later entry paid for the larger table (counted under valgrind:
 * 2,400 to 3,700 instructions a request for the map's `set` alone, Node 22).
 */
const BODY_TEXT = Symbol();

/** Where an answer of the `node:http` wire keeps its headers as Node parsed them (see {@link plainHeadersOf}). */
const PLAIN_HEADERS = Symbol();

/**
 * An answer's headers as `node:http` gives them (`IncomingMessage.headers`): lower-case names, a repeated header's
 * values joined by `, ` as `Headers.get` joins them, except `set-cookie` (an array) and the few whose repeats Node
 * drops (`content-type`, `content-length`, `location`, `retry-after` and others that cannot repeat): read a name
 * outside those here, or through `Headers.get`.
 */
export type PlainHeaders = Readonly<Record<string, string | string[] | undefined>>;

type WholeResponse = Response & { [BODY_TEXT]?: string; [PLAIN_HEADERS]?: PlainHeaders };

/**
 * A whole answer as a global `Response`, its text kept for {@link bodyTextOf} (and its headers as Node parsed them,
 * when given, for {@link plainHeadersOf}). A status outside 200–599 or a header fetch would refuse is not an HTTP
 * answer fetch could have given either: a network failure.
 */
export function wholeResponse(
  status: number,
  headers: HeadersInit,
  text: string,
  plain?: PlainHeaders,
): Response {
  let response: Response;
  try {
    // No body: no stream, and no `text/plain` content type invented for it; the headers are only those that arrived.
    response = new Response(null, { status, headers });
  } catch (cause) {
    throw new WireFailure("network", { cause });
  }
  (response as WholeResponse)[BODY_TEXT] = NULL_BODY_STATUSES.has(status) ? "" : text;
  if (plain !== undefined) (response as WholeResponse)[PLAIN_HEADERS] = plain;
  return response;
}

/**
 * The headers of an answer the `node:http` wire made, as a plain object; `undefined` for any other Response. Reading
 * one by name is a property load, where `Headers.get` converts and checks the name first (700 instructions a call,
 * counted under valgrind, for the request id every answer is asked for).
 */
export function plainHeadersOf(response: Response): PlainHeaders | undefined {
  return (response as WholeResponse)[PLAIN_HEADERS];
}

/**
 * The body text of an answer made by {@link wholeResponse}, as `response.text()` would have given it (one leading BOM
 * dropped, as fetch's UTF-8 decoding does); `undefined` for any other Response.
 */
export function bodyTextOf(response: Response): string | undefined {
  const text = (response as WholeResponse)[BODY_TEXT];
  return text !== undefined && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** True for statuses whose answer has no body (and methods that get none). */
export function hasNoBody(method: string, status: number): boolean {
  return method === "HEAD" || NULL_BODY_STATUSES.has(status);
}
