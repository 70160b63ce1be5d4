/**
 * fetch's two arguments as one `Request`. ky calls its `fetch` with its own `Request` and an empty init: that
 * `Request` is used as it is, since copying it would build a second one, with a second signal to follow, per call.
 */
export function requestOf(input: RequestInfo | URL, init: RequestInit | undefined): Request {
  const plain = init === undefined || Object.keys(init).length === 0;
  return input instanceof Request && plain ? input : new Request(input, init);
}

/** A request's headers as a plain object (lower-case names): what `node:http` and other fetch implementations take. */
export function plainHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
