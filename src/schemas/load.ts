/**
 * The schemas, loaded with the first call rather than with the SDK. zod/mini is about 90 modules, some 35 ms of a
 * cold start (a CLI, a test worker, a serverless function) that importing the SDK need not pay. What runs at import
 * (the client, the resources, `model/`) only names schema types; every schema value is reached through here: the
 * policy loads them before it describes a call (`Transport.request` hands them to the resource's description).
 *
 * @module
 */
import type * as SchemaModule from "./operations.js";

/** The schemas and helpers the operations use. */
export type Schemas = typeof SchemaModule;

let loaded: Schemas | undefined;
let loading: Promise<Schemas> | undefined;

/** The schemas: at once when loaded, else a promise of them (loaded once; a failed load is tried again). */
export function loadSchemas(): Schemas | Promise<Schemas> {
  if (loaded !== undefined) return loaded;
  loading ??= import("./operations.js").then(
    (module) => {
      loaded = module;
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
