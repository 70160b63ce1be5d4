/**
 * The connections a client shares with every client its `withOptions()` made: one pool per origin, at most
 * `maxSockets` sockets in all (a per-request `withOptions()` must not open a pool per call). The default Node wire
 * fills it with its agents on first use; the fetch build and a user's `fetch` leave it empty.
 *
 * @module
 */

/** A family's socket pool: opaque outside the wire. */
export interface SocketPool {
  /** The most connections open at once per origin, for every client of the family together. */
  readonly maxSockets: number;
}

/** A new, empty pool. */
export function createSocketPool(maxSockets: number): SocketPool {
  return { maxSockets };
}

/** What every fetch under ky is made with. */
export interface FetchOptions {
  /** The largest body read, in bytes after decompression. */
  maxResponseBytes: number;
  /** The client's constant headers, written on every request beside the request's own (`request.ts`). */
  headers?: Readonly<Record<string, string>> | undefined;
}

/** What a build's default fetch is made from. */
export interface DefaultFetchOptions extends FetchOptions {
  pool: SocketPool;
}
