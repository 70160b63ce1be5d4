/**
 * A user's `fetch` under ky: any implementation, whatever class its responses are. ky hands it its own `Request`;
 * the user's fetch is called once per attempt with a plain URL and init (npm undici, node-fetch and others do not
 * take the global `Request`), and its body is read here, counted while it streams. ky then gets what it accepts, a
 * global `Response` with the body whole, so ky's `timeout` covers the body as it does with the default wire.
 *
 * @module
 */
import { WireFailure } from "./failure.js";
import { plainHeaders, requestOf } from "./request.js";
import { hasNoBody, wholeResponse } from "./response.js";

/** The fetch ky is given when the user gave one. */
export function createUserFetch(own: typeof fetch, maxResponseBytes: number): typeof fetch {
  return async (input, init) => {
    const request = requestOf(input, init);
    const headers = plainHeaders(request.headers);
    const body = request.body === null ? undefined : await request.text();
    // ky's signal carries ky's timeout and the caller's abort, through the headers and the body.
    const { method, redirect, signal } = request;
    const answer = await own(request.url, { method, headers, body, signal, redirect });
    const text = hasNoBody(method, answer.status) ? "" : await readText(answer, maxResponseBytes);
    return wholeResponse(answer.status, new Headers(answer.headers), text);
  };
}

/**
 * The body as text, read as it streams and counted after decompression (fetch has already decoded it): past
 * `limit` bytes the reading stops and the body is cancelled, which is how fetch is told to drop the connection.
 */
async function readText(response: Response, limit: number): Promise<string> {
  const body = response.body;
  if (body === null) return "";
  const reader = body.getReader();
  // UTF-8, bad bytes replaced; a BOM is kept here and dropped once, when the policy reads the Response ky returns.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let text = "";
  let size = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return text + decoder.decode();
    size += chunk.value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw new WireFailure("too_large", { limitBytes: limit });
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
}
