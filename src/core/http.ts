/**
 * The wire: sends one attempt and reads its answer. It knows no operation and no retry rule (those are the policy's,
 * in `request.ts`); it only moves bytes, within a deadline and a size limit, and says how it failed.
 *
 * CONTRACT (the policy relies on exactly this):
 * - `send` resolves with the status, the headers and the whole body text of any HTTP answer, 2xx or not (a 3xx
 *   included: redirects are never followed).
 * - It rejects with a {@link WireFailure} when no whole answer arrived: `network` (refused, reset, DNS, body cut
 *   off), `timeout` (the attempt's deadline passed, headers or body), `aborted` (the caller's signal), `too_large`
 *   (the body passed `maxResponseBytes` after decompression; reading stopped there and the connection was dropped).
 * - Anything else it throws (a ky hook that throws, a bug) is not a wire failure and reaches the caller unchanged.
 *
 * How: every attempt goes through ky, with its documented options only (`retry: 0`: retries are the policy's). ky's
 * `fetch` option is the user's `fetch` when given, otherwise a keep-alive adapter over `node:http`
 * (`wire/node-fetch.ts`) with at most `maxSockets` connections per origin. Whichever fetch answers, the body is read
 * here, counting bytes as they stream.
 *
 * @module
 */
import type { KyInstance } from "ky";
import { onAbort } from "./abort.js";
import { WireFailure } from "./wire/failure.js";
import { requestOf } from "./wire/request.js";

export { WireFailure, type WireFailureKind } from "./wire/failure.js";

/** One attempt, as the policy hands it to the wire. */
export interface WireRequest {
  method: "GET" | "POST" | "PUT";
  /** Absolute URL, query included. */
  url: string;
  /** Lower-case names; the policy has already checked every name and value. */
  headers: Record<string, string>;
  /** JSON text, or `undefined` for no body. */
  body: string | undefined;
  /** Deadline of this attempt in milliseconds: it covers the response headers and the whole body. */
  timeoutMs: number;
  /** The caller's signal: when it aborts, the attempt stops at once. */
  signal: AbortSignal | undefined;
}

/** A whole HTTP answer. */
export interface WireResponse {
  status: number;
  headers: Headers;
  /** The body as text (empty for none). */
  text: string;
}

/** What the wire is built from: the client's options that concern sending. */
export interface HttpOptions {
  /** The user's `fetch`; the default wire is used otherwise. */
  fetch?: typeof fetch | undefined;
  /** The largest body read, in bytes after decompression. Default 1 MiB. */
  maxResponseBytes?: number | undefined;
  /** Connections kept per origin by the default wire. Default 32. */
  maxSockets?: number | undefined;
}

/** Sends attempts. One per client. */
export interface Http {
  send(request: WireRequest): Promise<WireResponse>;
}

/**
 * ky and the default adapter, loaded with the first request. Loading ky feature-detects fetch, which makes Node load
 * its fetch implementation (undici), and the adapter loads `node:http`: about 25 ms that an `import` of the SDK (a
 * CLI, a test worker, a serverless cold start) need not pay.
 */
let kyModule: Promise<typeof import("ky")> | undefined;
let nodeFetchModule: Promise<typeof import("./wire/node-fetch.js")> | undefined;

/** Why an attempt's own controller stopped it: the reason tells the failure kinds apart. */
const TIMED_OUT = Symbol("timed out");
const ABORTED = Symbol("aborted by the caller");
const TOO_LARGE = Symbol("too large");

/** ky, and how to recognise its timeout (a maintainer may set ky's `timeout`). */
interface Wire {
  ky: KyInstance;
  isKyTimeout: (error: unknown) => boolean;
}

/** Creates the wire of one client. */
export function createHttp(options: HttpOptions): Http {
  const limit = options.maxResponseBytes ?? 1_048_576;
  let wire: Wire | undefined;
  let loading: Promise<Wire> | undefined;
  const load = async (): Promise<Wire> => {
    loading ??= createWire(options, limit);
    wire = await loading;
    return wire;
  };
  return {
    async send(request) {
      return attempt(wire ?? (await load()), request, limit);
    },
  };
}

async function createWire(options: HttpOptions, limit: number): Promise<Wire> {
  kyModule ??= import("ky");
  const [{ default: ky, isTimeoutError }, fetch] = await Promise.all([kyModule, fetchOf(options, limit)]);
  const client = ky.create({
    retry: 0, // retries are the policy's (request.ts): one attempt here is one request on the wire
    timeout: false, // the attempt's deadline is set below: it must cover the body too, not only the headers
    throwHttpErrors: false, // every answer, 2xx or not, goes back to the policy
    redirect: "manual", // never follow: fetch would carry the Api-Key header to wherever a redirect points
    fetch: atFetchBoundary(fetch),
  });
  return { ky: client, isKyTimeout: isTimeoutError };
}

/** The fetch ky is given: the user's (called with a URL and an init, as any fetch accepts) or the node adapter. */
async function fetchOf(options: HttpOptions, limit: number): Promise<typeof fetch> {
  const own = options.fetch;
  if (own !== undefined) {
    return async (input, init) => {
      const request = requestOf(input, init);
      // A plain URL, object and string: other fetch implementations (npm undici, node-fetch) do not take the
      // global Request, and may answer with Responses of their own class, which is fine: the body is read below.
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const body = request.body === null ? undefined : await request.text();
      const { method, signal, redirect } = request;
      return own(request.url, { method, headers, body, signal, redirect });
    };
  }
  nodeFetchModule ??= import("./wire/node-fetch.js");
  const { createNodeFetch } = await nodeFetchModule;
  return createNodeFetch({ maxSockets: options.maxSockets ?? 32, maxResponseBytes: limit });
}

/** Whatever the fetch itself rejects with is a network failure (fetch's TypeError), unless the wire said more. */
function atFetchBoundary(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return (input, init) =>
    fetch(input, init).catch((cause: unknown) => {
      throw cause instanceof WireFailure ? cause : new WireFailure("network", { cause });
    });
}

/** One attempt under one deadline, which covers the headers and the body; the caller's signal stops it too. */
async function attempt(wire: Wire, request: WireRequest, limit: number): Promise<WireResponse> {
  const { signal } = request;
  if (signal?.aborted) throw new WireFailure("aborted", { cause: signal.reason });
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(TIMED_OUT), request.timeoutMs);
  const stopForwarding = signal && onAbort(signal, () => stop.abort(ABORTED));
  try {
    const { method, headers, body } = request;
    const response = await wire.ky(request.url, { method, headers, body, signal: stop.signal });
    const text = await readText(response, limit, () => stop.abort(TOO_LARGE));
    const answerHeaders =
      response.headers instanceof Headers ? response.headers : new Headers(response.headers);
    return { status: response.status, headers: answerHeaders, text };
  } catch (error) {
    throw failureOf(error, stop.signal, signal, wire);
  } finally {
    clearTimeout(timer);
    stopForwarding?.();
  }
}

/** What an attempt's error means: the attempt's own stop decides; anything not from the wire stays as it is. */
function failureOf(error: unknown, stop: AbortSignal, signal: AbortSignal | undefined, wire: Wire): unknown {
  if (error instanceof WireFailure && error.kind === "too_large") return error;
  if (stop.aborted && stop.reason === ABORTED) return new WireFailure("aborted", { cause: signal?.reason });
  if ((stop.aborted && stop.reason === TIMED_OUT) || wire.isKyTimeout(error))
    return new WireFailure("timeout");
  return error;
}

/**
 * The body as text, read as it streams and counted after decompression (fetch has already decoded it): past
 * `limit` bytes the reading stops, `drop` aborts the request (closing its connection), and nothing more is kept.
 */
async function readText(response: Response, limit: number, drop: () => void): Promise<string> {
  const body = response.body;
  if (body === null) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder(); // as response.text(): UTF-8, a BOM dropped, bad bytes replaced
  let text = "";
  let size = 0;
  for (;;) {
    const chunk = await reader.read().catch((cause: unknown) => {
      throw new WireFailure("network", { cause }); // the body was cut off
    });
    if (chunk.done) return text + decoder.decode();
    size += chunk.value.byteLength;
    if (size > limit) {
      drop();
      reader.cancel().catch(() => {});
      throw new WireFailure("too_large", { limitBytes: limit });
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
}
