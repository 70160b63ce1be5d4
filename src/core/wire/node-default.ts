/**
 * The Node build's default fetch: the pooled `node:http` wire. On a runtime that cannot load `node:http` (workerd
 * without compatibility flags, a bundle made without the package's export conditions) the client says what to do,
 * rather than let a runtime's own "No such module" reach the caller. The fetch build (`fetch-default.ts`) takes this
 * module's place: its default is the global `fetch`, and no `node:` module is reachable from it.
 *
 * @module
 */
import { ConfigurationError } from "../../errors.js";
import type { DefaultFetchOptions } from "./pool.js";
import type { Send } from "./request.js";

let nodeFetchModule: Promise<typeof import("./node-fetch.js")> | undefined;

/** The pooled node:http send, or a ConfigurationError naming the `fetch` option. */
export async function createDefaultSend(options: DefaultFetchOptions): Promise<Send> {
  nodeFetchModule ??= import("./node-fetch.js");
  let module: typeof import("./node-fetch.js");
  try {
    module = await nodeFetchModule;
  } catch (cause) {
    nodeFetchModule = undefined;
    throw new ConfigurationError(
      "This runtime cannot load node:http: pass `fetch: globalThis.fetch` in the client options.",
      { cause },
    );
  }
  return module.createNodeSend(options);
}
