/**
 * The fetch build's default fetch (Bun, Deno, workerd, edge-light, worker, browser conditions): the runtime's global
 * `fetch`, read at each call (a test tool may patch it), under the same reading as a user's `fetch`: the body
 * counted against `maxResponseBytes` as it streams, and read whole before ky's deadline ends. Connection pooling is
 * the runtime's. Nothing here or below imports a `node:` module.
 *
 * @module
 */
import type { DefaultFetchOptions } from "./pool.js";
import type { Send } from "./request.js";
import { createUserSend } from "./user-fetch.js";

/** The global fetch, bounded as the Node wire is. */
export async function createDefaultSend(options: DefaultFetchOptions): Promise<Send> {
  return createUserSend((input, init) => globalThis.fetch(input, init), options);
}
