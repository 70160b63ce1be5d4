/**
 * The one shape both fetches under ky answer with: a global `Response` holding a whole body, already read and counted
 * (ky only accepts the global class, and a body read before `fetch` resolves lets ky's `timeout` cover it).
 *
 * @module
 */
import { WireFailure } from "./failure.js";

/** Statuses whose Response must have a null body. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/**
 * A whole answer as a global `Response`. A status outside 200–599 or a header fetch would refuse is not an HTTP answer
 * fetch could have given either: a network failure.
 */
export function wholeResponse(status: number, headers: Headers, text: string): Response {
  const hadType = headers.has("content-type");
  let response: Response;
  try {
    response = new Response(NULL_BODY_STATUSES.has(status) ? null : text, { status, headers });
  } catch (cause) {
    throw new WireFailure("network", { cause });
  }
  // A text body makes Response invent `text/plain`: the answer keeps only the headers that arrived.
  if (!hadType) response.headers.delete("content-type");
  return response;
}

/** True for statuses whose answer has no body (and methods that get none). */
export function hasNoBody(method: string, status: number): boolean {
  return method === "HEAD" || NULL_BODY_STATUSES.has(status);
}
