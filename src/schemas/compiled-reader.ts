/**
 * The Node build's schema readers: from its second use on, an SDK schema (a response's, a method's input) is run by
 * the code zod generates for it (`z.compile`, zod's documented fast path) instead of by zod's interpreter walking it
 * node by node. The result is the same; a value the compiled code rejects goes on to the interpreter, so errors and
 * drift are worded as before. A status answer then builds 2.2 KB less, a create's input 0.7 KB less
 * (`bench/own-work.mjs`, issue #27). Only the SDK's own schemas come here (`readResponse`'s `runner`, `parseInput`):
 * on a value it rejects, the compiled code may run a refinement or a transform a second time, which a caller's schema
 * need not expect.
 *
 * The first use of each schema stays interpreted: a process that reads an answer once (a CLI, a serverless call)
 * never pays for the compilation (about 5 ms in a cold process). zod's `jitless` setting, which an application sets
 * for a Content Security Policy, is respected; where `new Function` is refused anyway, `z.compile` hands the schema
 * back unchanged and it is read as before.
 *
 * The fetch build (Bun, Deno, workerd, edge-light) has `interpreted-reader.ts` in its place (`tsup.config.ts`): edge
 * runtimes refuse generated code, and zod's compiler would add 10 KB (min + gzip) to their bundles for nothing.
 *
 * @module
 */
import * as z from "zod/mini";

type Schema = z.core.$ZodType;

/** The reader of each schema used twice: its compiled clone, or the schema itself where zod would not compile it. */
const readers = new WeakMap<Schema, Schema>();
const readOnce = new WeakSet<Schema>();

/** The schema to run in place of `schema`: `schema` itself on its first use, its compiled clone after. */
export function readerOf<S extends Schema>(schema: S): S {
  const reader = readers.get(schema);
  if (reader !== undefined) return reader as S;
  if (!readOnce.has(schema)) {
    readOnce.add(schema);
    return schema;
  }
  const made = z.config().jitless ? schema : z.compile(schema);
  readers.set(schema, made);
  return made;
}
