/**
 * The wire: sends one attempt and reads its answer. It knows no operation and no retry rule (those are the policy's,
 * in `transport.ts`); it only moves bytes, within a deadline, and says how it failed.
 *
 * CONTRACT (the policy relies on exactly this):
 * - `send` resolves with the status, the headers and the whole body text of any HTTP answer, 2xx or not.
 * - It rejects with a {@link WireFailure} when no whole answer arrived: `network` (refused, reset, DNS, body cut
 *   off), `timeout` (the attempt's deadline passed, headers or body), `aborted` (the caller's signal).
 * - Anything else it throws is a bug and must reach the caller unchanged.
 *
 * @module
 */
import type { KyInstance, Options } from "ky";
import { onAbort } from "./abort.js";

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

/**
 * How an attempt failed to produce a whole answer. `too_large`: the body passed `maxResponseBytes` (counted after
 * decompression); the connection was dropped and nothing more was buffered. Not worth retrying.
 */
export type WireFailureKind = "network" | "timeout" | "aborted" | "too_large";

/** The wire's only error: anything else thrown from {@link Http.send} is a bug. Never holds a header. */
export class WireFailure extends Error {
  override name = "WireFailure";
  readonly kind: WireFailureKind;
  /** With `too_large`: the limit that was passed, in bytes. */
  readonly limitBytes: number | undefined;

  constructor(kind: WireFailureKind, options?: { cause?: unknown; limitBytes?: number }) {
    super(`wire ${kind}`, options);
    this.kind = kind;
    this.limitBytes = options?.limitBytes;
  }
}

/** What the wire is built from: the client's options that concern sending. */
export interface HttpOptions {
  /** The user's `fetch`; the default wire is used otherwise. */
  fetch?: typeof fetch | undefined;
  /** The largest body read, in bytes after decompression. */
  maxResponseBytes?: number | undefined;
  /** Connections kept per origin by the default wire. */
  maxSockets?: number | undefined;
}

/** Sends attempts. One per client. */
export interface Http {
  send(request: WireRequest): Promise<WireResponse>;
}

/**
 * ky, loaded with the first request. Loading ky feature-detects fetch, which makes Node load its fetch implementation
 * (undici): about 25 ms that an `import` of the SDK (a CLI, a test worker, a serverless cold start) need not pay.
 */
let kyModule: Promise<typeof import("ky")> | undefined;

/** The key under which a call's own URL and init travel through ky to its `fetch` (ky forwards unknown options). */
const WIRE = "merchantPaymentsWire";
interface WireInit {
  url: string;
  init: RequestInit;
}

/** Creates the wire of one client. */
export function createHttp(options: HttpOptions): Http {
  let client: KyInstance | undefined;
  const createKy = async (): Promise<KyInstance> => {
    kyModule ??= import("ky");
    const { default: ky } = await kyModule;
    client ??= ky.create({
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      hooks: {
        beforeRequest: [
          (_request, kyOptions) => {
            const wire = (kyOptions as unknown as { [WIRE]: WireInit })[WIRE];
            const fetchNow = options.fetch ?? globalThis.fetch; // read per call: test tools patch the global fetch
            return fetchNow(wire.url, wire.init);
          },
        ],
      },
    });
    return client;
  };

  return {
    async send(request) {
      const { signal } = request;
      if (signal?.aborted) throw new WireFailure("aborted", { cause: signal.reason });
      // One deadline per attempt covers the headers and the body; the caller's signal aborts it too.
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), request.timeoutMs);
      const stopForwarding = signal && onAbort(signal, () => deadline.abort());
      try {
        // Never follow a redirect: fetch would carry the Api-Key header to wherever it points.
        const init: RequestInit = {
          method: request.method,
          headers: request.headers,
          body: request.body,
          signal: deadline.signal,
          redirect: "manual",
        };
        const ky = client ?? (await createKy());
        const response = await ky(request.url, {
          method: request.method,
          [WIRE]: { url: request.url, init } satisfies WireInit,
        } as Options);
        const text = await response.text();
        return { status: response.status, headers: response.headers, text };
      } catch (error) {
        if (signal?.aborted) throw new WireFailure("aborted", { cause: signal.reason });
        if (deadline.signal.aborted) throw new WireFailure("timeout");
        // A refused or reset connection, or a body cut off: fetch's TypeError. Its cause says why, never the headers.
        const cause = error instanceof Error ? (error.cause ?? error.message) : error;
        throw new WireFailure("network", { cause });
      } finally {
        clearTimeout(timer);
        stopForwarding?.();
      }
    },
  };
}
