/**
 * The fetch build's schema readers (Bun, Deno, workerd, edge-light): every schema is run by zod's interpreter. It
 * takes the place of `compiled-reader.ts` (`tsup.config.ts`), which says why.
 *
 * @module
 */
import type * as z from "zod/mini";

/** The schema to run in place of `schema`: `schema` itself. */
export function readerOf<S extends z.core.$ZodType>(schema: S): S {
  return schema;
}
