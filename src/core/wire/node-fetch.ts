/**
 * The default wire under ky: a `Send` (ky's `Request`, the call's body beside it: `request.ts`) over `node:http` and
 * `node:https` with keep-alive connections, at most `maxSockets` per origin for a client and every client its
 * `withOptions()` made (global `fetch` has no limit: thousands of concurrent polls opened one socket each).
 * `http.ts` loads this module with the first request, so importing the SDK never loads `node:http`.
 *
 * It behaves as fetch does where the SDK relies on it: content encodings (gzip, deflate, br) are decoded, a 3xx comes
 * back as it is (never followed: that would carry the Api-Key header to wherever it points), and the request's signal
 * destroys the socket at any point, headers or body. Unlike fetch it reads the whole body before resolving, counting
 * decoded bytes: past `maxResponseBytes` it stops inflating, drops the connection, and rejects with `too_large`; and
 * the Response it resolves with carries the headers only, the text beside it (`response.ts`).
 *
 * @module
 */
import http, { type Agent, type IncomingMessage, type RequestOptions } from "node:http";
import https from "node:https";
import { pipeline, type Readable, type Transform } from "node:stream";
import { urlToHttpOptions } from "node:url";
import zlib from "node:zlib";
import { MAX_CONTENT_CODINGS, WireFailure } from "./failure.js";
import { createSocketPool, type FetchOptions, type SocketPool } from "./pool.js";
import { fetchOver, plainHeaders, type Send } from "./request.js";
import { hasNoBody, wholeResponse } from "./response.js";

/** How the transport (and the bench's ky floor, which loads this module alone) reads an answer's text. */
export { bodyTextOf } from "./response.js";

/** The agents of each pool, made when the first client of its family sends. */
const agentsOfPool = new WeakMap<SocketPool, { http: Agent; https: Agent }>();

function agentsOf(pool: SocketPool): { http: Agent; https: Agent } {
  let agents = agentsOfPool.get(pool);
  if (agents === undefined) {
    const agentOptions = { keepAlive: true, maxSockets: pool.maxSockets };
    agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
    agentsOfPool.set(pool, agents);
  }
  return agents;
}

/** A family's pool, or (the bench's adapter on its own) a `maxSockets` for a pool of its own. */
export type NodeFetchOptions = FetchOptions & ({ pool: SocketPool } | { maxSockets: number });

/** Creates the send of one client, on its family's agents: `maxSockets` holds per family and origin. */
export function createNodeSend(options: NodeFetchOptions): Send {
  // Default imports, read at call time: test tools (MSW) patch `request` on the module objects.
  const agents = agentsOf("pool" in options ? options.pool : createSocketPool(options.maxSockets));
  const agentFor = (protocol: string): Agent => (protocol === "https:" ? agents.https : agents.http);
  const { headers: base, maxResponseBytes } = options;
  return (request, body) =>
    exchange(request, body, outgoingHeaders(request.headers, base, body), agentFor, maxResponseBytes);
}

/** The same wire as a fetch whose `Request` carries its body: the bench's ky floor. */
export function createNodeFetch(options: NodeFetchOptions): typeof fetch {
  return fetchOver(createNodeSend(options));
}

/** Where each origin the wire has sent to is, as `node:http` takes it: parsed once, not on every request. */
const targets = new Map<string, Pick<RequestOptions, "protocol" | "hostname" | "port">>();
/** Past this many origins the cache starts again: a client talks to one or two. */
const MAX_TARGETS = 64;

/** `node:http` options for an absolute http(s) URL (a Request's, so already parsed and serialised by WHATWG URL). */
function targetOf(href: string): RequestOptions {
  const pathStart = href.indexOf("/", href.indexOf("//") + 2);
  const origin = pathStart === -1 ? href : href.slice(0, pathStart);
  let target = targets.get(origin);
  if (target === undefined) {
    const { protocol, hostname, port } = urlToHttpOptions(new URL(origin));
    target = { protocol, hostname, port };
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(origin, target);
  }
  const hash = href.indexOf("#", pathStart);
  const path = pathStart === -1 ? "/" : href.slice(pathStart, hash === -1 ? undefined : hash);
  return { ...target, path };
}

/**
 * Sends one request with `headers` and resolves with its whole, decoded answer as a global Response (what ky
 * accepts), its text beside it (`bodyTextOf`).
 */
function exchange(
  request: Request,
  body: string | undefined,
  headers: Record<string, string>,
  agentFor: (protocol: string) => Agent,
  limit: number,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const { signal } = request;
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const target = targetOf(request.url);
    const send = target.protocol === "https:" ? https.request : http.request;
    target.method = request.method;
    target.headers = headers;
    target.agent = agentFor(target.protocol as string);
    const outgoing = send(target);
    // The exchange is open while `open.abort` is set: the signal's listener reaches the exchange through it alone.
    const open: Abortable = { abort: () => fail(signal.reason) };
    const onAbort = abortListenerOf(open);
    const settle = (finish: () => void) => {
      if (!open.abort) return;
      open.abort = undefined;
      signal.removeEventListener("abort", onAbort);
      finish();
    };
    // Destroying the request destroys its socket: nothing more is read, and the pool opens a fresh one.
    const fail = (error: unknown) =>
      settle(() => {
        outgoing.destroy();
        reject(error);
      });
    signal.addEventListener("abort", onAbort, { once: true });
    // Once the status arrived, a reset is the body's failure: the service answered (see readBody).
    let status: number | undefined;
    outgoing.on("error", (cause) =>
      fail(new WireFailure(status === undefined ? "network" : "unreadable", { cause, status })),
    );
    outgoing.on("response", (incoming) => {
      status = incoming.statusCode ?? 0;
      readBody(incoming, request.method, limit).then(
        (text) => settle(() => resolveWith(resolve, reject, incoming, text)),
        fail,
      );
    });
    outgoing.end(body);
  });
}

/** What an abort of the request's signal does while the exchange is open; `undefined` once it has settled. */
interface Abortable {
  abort: (() => void) | undefined;
}

/**
 * The abort listener of one exchange, made outside it so that it closes over `abortable` alone: a closure made inside
 * would share the exchange's scope (the request, the outgoing message, the promise and everything awaiting it). The
 * listener is removed when the exchange settles; yet on Node 22, once V8 allocated `EventTarget` listener lists in the
 * old generation (it decides so from how long they live), a listener holding the exchange kept each request in flight
 * at a minor collection until a major one: 13 KB a create into the old generation at 64 at a time, instead of 5
 * (`bench/promotion.mjs`; `bench/RESULTS.md`, twelfth pass).
 */
function abortListenerOf(abortable: Abortable): () => void {
  return () => abortable.abort?.();
}

function outgoingHeaders(
  headers: Headers,
  base: Readonly<Record<string, string>> | undefined,
  body: string | undefined,
): Record<string, string> {
  const out = plainHeaders(headers, base, body);
  // What fetch asks for, and decodes below.
  out["accept-encoding"] ??= "gzip, deflate, br";
  if (body !== undefined) out["content-length"] = String(Buffer.byteLength(body));
  return out;
}

/**
 * The decoded body as text, read while counting bytes: past `limit` the reading stops and the promise rejects. A BOM
 * is kept: the Response built from the text drops it when read, as fetch's does.
 */
function readBody(incoming: IncomingMessage, method: string, limit: number): Promise<string> {
  let source: Readable;
  try {
    source = hasNoBody(method, incoming.statusCode ?? 0) ? incoming : decoded(incoming);
  } catch (error) {
    incoming.destroy();
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    source.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new WireFailure("too_large", { limitBytes: limit }));
        source.destroy(); // stops inflating at once: a compression bomb is never expanded past the limit
        return;
      }
      chunks.push(chunk);
    });
    source.on("end", () =>
      resolve((chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)).toString("utf8")),
    );
    // A body cut off (the socket closed before its end) or a corrupt encoding: the answer never arrived whole.
    // The status arrived: the service answered, so this is never "could not reach the service".
    const status = incoming.statusCode ?? 0;
    source.on("error", (cause) => reject(new WireFailure("unreadable", { cause, status })));
    incoming.on("close", () => {
      if (!incoming.complete)
        reject(new WireFailure("unreadable", { cause: "the body was cut off", status }));
    });
  });
}

/**
 * The body stream decoded as fetch decodes it: `Content-Encoding` lists codings in the order they were applied, so
 * they are undone last first; an unknown coding leaves the body as it came. More than {@link MAX_CONTENT_CODINGS}
 * is refused before anything is inflated (2,500 × gzip cost 41 s of CPU per call).
 */
function decoded(incoming: IncomingMessage): Readable {
  const header = incoming.headers["content-encoding"];
  if (!header) return incoming;
  const codings = header.toLowerCase().split(",");
  if (codings.length > MAX_CONTENT_CODINGS) {
    const cause = `more than ${MAX_CONTENT_CODINGS} content codings`;
    throw new WireFailure("unreadable", { cause, status: incoming.statusCode ?? 0 });
  }
  const decoders: Transform[] = [];
  for (const coding of codings.reverse()) {
    const decoder = decoderOf(coding.trim());
    if (decoder === null) return incoming;
    if (decoder !== undefined) decoders.push(decoder);
  }
  const last = decoders.at(-1);
  if (last === undefined) return incoming;
  // pipeline destroys every stage when one fails or is destroyed, and forwards errors to the last.
  pipeline([incoming, ...decoders], () => {});
  return last;
}

/** A decoder for one coding; `undefined` for identity, `null` for a coding fetch does not know either. */
function decoderOf(coding: string): Transform | null | undefined {
  // Sync flushes, as undici does: a body whose compressed stream is cut short still yields what arrived.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (coding) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip(flush);
    case "deflate":
      return zlib.createInflate(flush);
    case "br":
      return zlib.createBrotliDecompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      });
    case "identity":
    case "":
      return undefined;
    default:
      return null;
  }
}

function resolveWith(
  resolve: (response: Response) => void,
  reject: (error: unknown) => void,
  incoming: IncomingMessage,
  text: string,
): void {
  try {
    // Name and value pairs, as they arrived: the Response checks and copies them once.
    const headers: [string, string][] = [];
    const raw = incoming.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i] as string, raw[i + 1] as string]);
    resolve(wholeResponse(incoming.statusCode ?? 0, headers, text, incoming.headers));
  } catch (cause) {
    // A header fetch would refuse: not an HTTP answer fetch could have given either.
    reject(cause instanceof WireFailure ? cause : new WireFailure("network", { cause }));
  }
}
