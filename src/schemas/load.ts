/**
 * The one door to the schemas for the transport: {@link loadSchemas} gives the operations' schemas (`operations.ts`),
 * importing them with the first call rather than with the SDK, so that importing the SDK does not load zod.
 *
 * @module
 */
import type * as SchemaModule from "./operations.js";

/** The schemas and helpers the operations use. */
export type Schemas = typeof SchemaModule;

let loaded: Schemas | undefined;
let loading: Promise<Schemas> | undefined;

/** The schemas once loaded, else `undefined`: a call's hot path reads them without a promise or a class check. */
export function loadedSchemas(): Schemas | undefined {
  return loaded;
}

/** The schemas: at once when loaded, else a promise of them (loaded once; a failed load is tried again). */
export function loadSchemas(): Schemas | Promise<Schemas> {
  if (loaded !== undefined) return loaded;
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
