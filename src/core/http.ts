/**
 * The wire: sends one attempt and reads its answer. It knows no operation and no retry rule (those are the transport's,
 * in `transport.ts` and `retry.ts`); it only moves bytes, within a deadline and a size limit, and says how it failed.
 *
 * CONTRACT (the transport relies on exactly this):
 * - `send` resolves with any HTTP answer, 2xx or not (a 3xx included: redirects are never followed), whose status,
 *   headers and whole body text {@link answerOf} reads.
 * - What it rejects with, `failureOf` names: a {@link WireFailure} when no whole answer arrived: `network` (refused,
 *   reset, DNS: no status arrived), `unreadable` (the status arrived, the body could not be read whole: cut off, a
 *   failing or sixth coding), `timeout` (the attempt's deadline passed, headers or body), `aborted` (the caller's
 *   signal), `too_large` (the body passed `maxResponseBytes` after decompression; reading stopped there and the
 *   connection was dropped).
 * - Anything else (a bug) is not a wire failure and `failureOf` hands it back unchanged.
 *
 * How: every attempt goes through ky, with its documented options only: `retry: 0` (retries are the transport's) and
 * the attempt's deadline as ky's `timeout`. ky's `fetch` option is a keep-alive adapter over `node:http`
 * (`wire/node-fetch.ts`, at most `maxSockets` connections per origin, shared with every `withOptions()` client) or
 * the user's `fetch` (`wire/user-fetch.ts`). A call's body goes beside ky's `Request`, not in it (`wire/request.ts`,
 * `Send`): an attempt with a body gives ky a `fetch` of its own, which hands the adapter the text with the `Request`.
 * The fetch build (Bun, Deno, workerd, edge-light, worker) replaces `wire/node-default.ts` by `wire/fetch-default.ts`:
 * its default is the global `fetch` under the user-fetch reading.
 * All resolve only once the body is whole and counted, so ky's `timeout` covers the headers and the body.
 *
 * @module
 */
import type { KyInstance, Options } from "ky";
import { onAbort } from "./abort.js";
import { WireFailure } from "./wire/failure.js";
import { createSocketPool, type SocketPool } from "./wire/pool.js";
import { requestOf, type Send } from "./wire/request.js";
import { bodyTextOf, type PlainHeaders, plainHeadersOf } from "./wire/response.js";

export { WireFailure, type WireFailureKind } from "./wire/failure.js";
export type { SocketPool } from "./wire/pool.js";

/**
 * What the wire sends on every attempt of a call, as the transport hands it over: its prepared call as it is (one
 * object per call, not per attempt), each attempt's deadline beside it.
 */
export interface WireRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Absolute URL, query included. */
  url: string;
  /**
   * The call's own headers (lower-case names, checked by the transport): the client's constant ones
   * ({@link HttpOptions.headers}) are the wire's, written beside these, a name here winning.
   */
  headers: Record<string, string>;
  /** JSON text, or `undefined` for no body. */
  body: string | undefined;
  /** The caller's signal: when it aborts, the attempt stops at once. */
  signal: AbortSignal | undefined;
}

/** A whole HTTP answer. */
export interface WireResponse {
  status: number;
  headers: Headers;
  /** The same headers as a plain object, when the wire has one (the `node:http` wire): read by name more cheaply. */
  plainHeaders: PlainHeaders | undefined;
  /** The body as text (empty for none). */
  text: string;
}

/** What the wire is built from: the client's options that concern sending. */
export interface HttpOptions {
  /**
   * The client's constant headers on every request of this wire (credentials, `User-Agent`, the pinned version,
   * `defaultHeaders`; the client's `Merchant-Id` on the wire of merchant-scoped calls), lower-case names, checked.
   * The fetch under ky writes them (`wire/request.ts`), not ky: through ky each header is checked and copied into
   * three WHATWG `Headers` a call (ky's merge, its `Request`), about 14,000 instructions a header that no ky feature
   * the SDK uses reads.
   */
  headers: Readonly<Record<string, string>>;
  /** The user's `fetch`; the default wire is used otherwise. */
  fetch?: typeof fetch | undefined;
  /** The largest body read, in bytes after decompression. Default 1 MiB. */
  maxResponseBytes?: number | undefined;
  /** Connections kept per origin by the default wire. Default 32. */
  maxSockets?: number | undefined;
  /** The pool of the client's family (its `withOptions()` parent's, when its `maxSockets` is the same). */
  pool?: SocketPool | undefined;
}

/**
 * Sends attempts. One per client. An attempt is two steps of the caller's: `send`, then {@link answerOf} on what it
 * resolves with or `failureOf` on what it rejects with. (ky's own promise is handed over as it is, not wrapped in a
 * promise of the wire's: one promise step fewer a call.)
 */
export interface Http {
  /**
   * Sends one attempt; `timeoutMs` is its deadline in milliseconds, covering the response headers and the whole body.
   * Resolves with the whole answer, its text read (see {@link answerOf}).
   */
  send(request: WireRequest, timeoutMs: number): Promise<Response>;
  /** What a rejection of `send` means: a {@link WireFailure}, or (not the wire's: a bug) the error unchanged. */
  failureOf(error: unknown): unknown;
  /** The sockets this client sends on: handed to the clients its `withOptions()` makes. */
  readonly pool: SocketPool;
}

/** The family's pool when its size is the one asked for; a new pool otherwise. */
export function sharedPool(parent: SocketPool | undefined, maxSockets: number | undefined): SocketPool {
  const size = maxSockets ?? DEFAULT_MAX_SOCKETS;
  return parent !== undefined && parent.maxSockets === size ? parent : createSocketPool(size);
}

const DEFAULT_MAX_SOCKETS = 32;

/**
 * ky and the fetch under it, loaded with the first request. Loading ky feature-detects fetch, which makes Node load
 * its fetch implementation (undici), and the adapter loads `node:http`: about 25 ms that an `import` of the SDK (a
 * CLI, a test worker, a serverless cold start) need not pay.
 */
let kyModule: Promise<typeof import("ky")> | undefined;
let defaultFetchModule: Promise<typeof import("./wire/node-default.js")> | undefined;
let userFetchModule: Promise<typeof import("./wire/user-fetch.js")> | undefined;

/** The reason the caller's abort is forwarded with: it tells an abort from a network failure. */
const ABORTED = Symbol("aborted by the caller");

/** ky, the send under it, and how to recognise ky's timeout. */
interface Wire {
  ky: KyInstance;
  send: Send;
  isKyTimeout: (error: unknown) => boolean;
}

/** Creates the wire of one client. */
export function createHttp(options: HttpOptions): Http {
  const limit = options.maxResponseBytes ?? 1_048_576;
  const pool = sharedPool(options.pool, options.maxSockets);
  let wire: Wire | undefined;
  let loading: Promise<Wire> | undefined;
  const load = async (): Promise<Wire> => {
    loading ??= createWire(options, limit, pool);
    // A wire that failed to load (a runtime without node:http) is tried again by the next call.
    loading.catch(() => {
      loading = undefined;
    });
    wire = await loading;
    return wire;
  };
  return {
    pool,
    send(request, timeoutMs) {
      return wire === undefined
        ? load().then((loaded) => attempt(loaded, request, timeoutMs))
        : attempt(wire, request, timeoutMs);
    },
    failureOf(error) {
      return wire === undefined ? error : failureOf(error, undefined, undefined, wire);
    },
  };
}

async function createWire(options: HttpOptions, limit: number, pool: SocketPool): Promise<Wire> {
  kyModule ??= import("ky");
  const [{ default: ky, isTimeoutError }, send] = await Promise.all([kyModule, sendOf(options, limit, pool)]);
  const client = ky.create({
    retry: 0, // retries are the transport's (transport.ts): one attempt here is one request on the wire
    throwHttpErrors: false, // every answer, 2xx or not, goes back to the transport
    redirect: "manual", // never follow: fetch would carry the Api-Key header to wherever a redirect points
    fetch: fetchWith(send, undefined),
  });
  return { ky: client, send, isKyTimeout: isTimeoutError };
}

/** The send under ky: over the user's `fetch`, or the build's default. Both answer with the body whole and counted. */
async function sendOf(options: HttpOptions, limit: number, pool: SocketPool): Promise<Send> {
  if (options.fetch !== undefined) {
    userFetchModule ??= import("./wire/user-fetch.js");
    const { createUserSend } = await userFetchModule;
    return createUserSend(options.fetch, { maxResponseBytes: limit, headers: options.headers });
  }
  // Swapped for wire/fetch-default.ts in the fetch build (tsup.config.ts).
  defaultFetchModule ??= import("./wire/node-default.js");
  const { createDefaultSend } = await defaultFetchModule;
  return createDefaultSend({ pool, maxResponseBytes: limit, headers: options.headers });
}

/**
 * The fetch ky calls: the wire's send with `body` beside ky's `Request` (the client's, made once, for calls without
 * one). Whatever it rejects with is a network failure (fetch's TypeError), unless the wire said more.
 */
function fetchWith(send: Send, body: string | undefined): typeof globalThis.fetch {
  return (input, init) => send(requestOf(input, init), body).catch(rethrowAsWireFailure);
}

/** A rejection of the fetch, as the wire failure it is (a function of its own: no closure per request). */
function rethrowAsWireFailure(cause: unknown): never {
  throw cause instanceof WireFailure ? cause : new WireFailure("network", { cause });
}

/**
 * One attempt under ky's `timeout`. Without a caller's signal (the common case) it is ky's own promise: its rejection
 * is named by the caller (`Http.failureOf`).
 */
function attempt(wire: Wire, request: WireRequest, timeoutMs: number): Promise<Response> {
  const { signal } = request;
  if (signal !== undefined) return attemptWithSignal(wire, request, timeoutMs, signal);
  return wire.ky(request.url, kyOptionsOf(request, timeoutMs, wire));
}

/**
 * An attempt with the caller's signal: it reaches ky through a controller of the attempt's own, so that the caller's
 * signal carries one listener however many calls share it (`onAbort`), removed when the attempt ends. Its rejection
 * is named here, where the controller is known: an abort of the caller's is `aborted`, not a network failure.
 */
async function attemptWithSignal(
  wire: Wire,
  request: WireRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Response> {
  if (signal.aborted) throw new WireFailure("aborted", { cause: signal.reason });
  const stop = new AbortController();
  const stopForwarding = onAbort(signal, () => stop.abort(ABORTED));
  try {
    const options = kyOptionsOf(request, timeoutMs, wire);
    options.signal = stop.signal;
    return await wire.ky(request.url, options);
  } catch (error) {
    throw failureOf(error, stop.signal, signal, wire);
  } finally {
    stopForwarding();
  }
}

/**
 * Only the options this attempt has: ky merges every key given (an `undefined` one too) into a new object. A body goes
 * to the wire beside ky's `Request` (`fetchWith`), never into it.
 */
function kyOptionsOf({ method, headers, body }: WireRequest, timeoutMs: number, wire: Wire): Options {
  const options: Options = { method, timeout: timeoutMs };
  if (hasAny(headers)) options.headers = headers;
  if (body !== undefined) options.fetch = fetchWith(wire.send, body);
  return options;
}

/** True when `headers` has a header: a call that adds none (a status call) gives ky no `headers` to merge. */
function hasAny(headers: Record<string, string>): boolean {
  for (const _ in headers) return true;
  return false;
}

/**
 * The answer an attempt resolved with, read. Both fetches under ky hand their answer's whole text over beside it
 * (`wire/response.ts`), and ky, with no hook and `throwHttpErrors` off, resolves with that very Response: one without
 * its text is a bug, thrown as such.
 */
export function answerOf(response: Response): WireResponse {
  const text = bodyTextOf(response);
  if (text === undefined) throw new Error("the wire's answer came without its text");
  return { status: response.status, headers: response.headers, plainHeaders: plainHeadersOf(response), text };
}

/** What an attempt's error means: the caller's abort and ky's timeout decide; anything not from the wire stays. */
function failureOf(
  error: unknown,
  stop: AbortSignal | undefined,
  signal: AbortSignal | undefined,
  wire: Wire,
): unknown {
  if (error instanceof WireFailure && (error.kind === "too_large" || error.kind === "unreadable"))
    return error;
  if (stop?.aborted && stop.reason === ABORTED) return new WireFailure("aborted", { cause: signal?.reason });
  if (wire.isKyTimeout(error)) return new WireFailure("timeout");
  return error;
}
