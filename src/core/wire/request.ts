/**
 * fetch's two arguments as one `Request`. ky calls its `fetch` with its own `Request` and an empty init: that
 * `Request` is used as it is, since copying it would build a second one, with a second signal to follow, per call.
 */
export function requestOf(input: RequestInfo | URL, init: RequestInit | undefined): Request {
  const plain = init === undefined || Object.keys(init).length === 0;
  return input instanceof Request && plain ? input : new Request(input, init);
}

/**
 * What a wire sends with: ky's `Request` and the call's body text beside it (`undefined` for none). The SDK gives ky no
 * body: ky would copy the text into a stream of its `Request`, which the wire would then read back out (5.7 µs a POST
 * on Node 22, 3.5 µs on Node 24, of the 100 to 190 µs a create costs), so the wire takes the text as it is.
 */
export type Send = (request: Request, body: string | undefined) => Promise<Response>;

/** `send` as a fetch, for a caller whose `Request` carries its body (the bench's ky floor; tests). */
export function fetchOver(send: Send): typeof fetch {
  return async (input, init) => {
    const request = requestOf(input, init);
    return send(request, await requestBodyText(request));
  };
}

/**
 * A request's headers as a plain object (lower-case names), over the client's constant ones (`base`: credentials,
 * `User-Agent`, the pinned version, `defaultHeaders`, on merchant-scoped calls `Merchant-Id`): what `node:http` and
 * other fetch implementations take. A header of the request's own wins over a constant one of the same name (a call's
 * `apiVersion`, its `headers`, its `merchantId`). A body handed beside the request is the call's JSON (`Send`): its
 * `Content-Type` is written here, unless the request names one (a caller whose `Request` carries its body).
 */
export function plainHeaders(
  headers: Headers,
  base: Readonly<Record<string, string>> | undefined,
  body: string | undefined,
): Record<string, string> {
  const out: Record<string, string> = { ...base };
  headers.forEach((value, name) => {
    out[name] = value;
  });
  if (body !== undefined) out["content-type"] ??= "application/json";
  return out;
}

/**
 * A request's body as text (`undefined` for none), read so that its stream is left unlocked. ky cancels the body of the
 * request it sent once the answer is in; cancelling a stream still locked by `request.text()` rejects with an error
 * built, its stack trace captured, on every request with a body: about a tenth of a POST's CPU. Read through a reader
 * that is released, the stream is closed and unlocked, and cancelling it is a no-op. Decoded as `text()` decodes
 * (UTF-8, one leading BOM dropped, malformed bytes replaced).
 */
export async function requestBodyText(request: Request): Promise<string | undefined> {
  const { body } = request;
  if (body === null) return undefined;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
  return text + decoder.decode();
}
