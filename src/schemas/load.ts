/**
 * The one door to the schemas for the transport: {@link loadSchemas} imports the operations' schemas (`operations.ts`)
 * with the first call rather than with the SDK, so that importing the SDK does not load zod; {@link loadedSchemas}
 * gives them to every later call without a promise.
 *
 * @module
 */
import type * as SchemaModule from "./operations.js";

/** The schemas and helpers the operations use. */
export type Schemas = typeof SchemaModule;

let loaded: Schemas | undefined;
let loading: Promise<Schemas> | undefined;

/** The schemas once loaded, else `undefined`: a call's hot path reads them without a promise. */
export function loadedSchemas(): Schemas | undefined {
  return loaded;
}

/** A promise of the schemas, imported once (a failed import is tried again by the next call). */
export function loadSchemas(): Promise<Schemas> {
  loading ??= import("./operations.js").then(
    (module) => {
      // A plain copy: every call reads a few of these by name, and a module namespace object's properties are
      // slower to read than an ordinary object's.
      loaded = { ...module };
      return loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
