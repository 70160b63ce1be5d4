/**
 * fetch's two arguments as one `Request`. ky calls its `fetch` with its own `Request` and an empty init: that
 * `Request` is used as it is, since copying it would build a second one, with a second signal to follow, per call.
 */
export function requestOf(input: RequestInfo | URL, init: RequestInit | undefined): Request {
  const plain = init === undefined || Object.keys(init).length === 0;
  return input instanceof Request && plain ? input : new Request(input, init);
}

/**
 * A request's headers as a plain object (lower-case names), over the client's constant ones (`base`: credentials,
 * `User-Agent`, the pinned version, `defaultHeaders`, on merchant-scoped calls `Merchant-Id`): what `node:http` and
 * other fetch implementations take. A header of the request's own wins over a constant one of the same name (a call's
 * `apiVersion`, its `headers`, its `merchantId`).
 */
export function plainHeaders(
  headers: Headers,
  base: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const out: Record<string, string> = { ...base };
  headers.forEach((value, name) => {
    out[name] = value;
  });
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
