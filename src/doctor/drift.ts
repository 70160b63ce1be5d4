/**
 * Drift: where an answer differs from what the SDK reads. A response schema of the operations table is rebuilt
 * strict (every object closed to unknown fields, every open enum closed to its known values), the answer parsed
 * with it, and each zod issue classified: `missing`, `extra`, `type` or `enum`, by field path.
 *
 * The rebuild walks zod's schema definitions (`schema._zod.def`, zod 4's documented structure for library
 * authors); what the tolerant building blocks hide (a response array's item, an open enum's values) comes from
 * `schemas/strictness.ts`.
 *
 * @module
 */
import * as z from "zod/mini";
import { fieldPath, PARSE_CONTEXT, type PathKey } from "../schemas/issues.js";
import { valueAt } from "../schemas/parse.js";
import { isNotExaminedIssue, responseArray } from "../schemas/response-array.js";
import { arrayItemOf, isKeptOpen, knownValuesOf } from "../schemas/strictness.js";

type Schema = z.core.$ZodType;

/** How an answer differs from what the SDK reads at one field. */
export type DriftKind = "missing" | "extra" | "type" | "enum";

/** One difference: the field path (`data.*.id`, `*` for any array item; `headers.request-id`) and its kind. */
export interface DriftEntry {
  path: string;
  kind: DriftKind;
}

/** The definition fields that hold one inner schema, by definition type. */
const WRAPPERS: Readonly<Record<string, string>> = {
  optional: "innerType",
  nullable: "innerType",
  default: "innerType",
  prefault: "innerType",
  nonoptional: "innerType",
  readonly: "innerType",
  catch: "innerType",
  array: "element",
};

const strictCache = new WeakMap<Schema, Schema>();

/** `schema` with every object closed to unknown fields and every open enum closed to its known values. */
export function strictSchemaOf(schema: Schema): Schema {
  const cached = strictCache.get(schema);
  if (cached !== undefined) return cached;
  const strict = rebuilt(schema);
  strictCache.set(schema, strict);
  return strict;
}

function rebuilt(schema: Schema): Schema {
  if (isKeptOpen(schema)) return schema;
  const item = arrayItemOf(schema);
  // Read in chunks with issues grouped by field, as the SDK reads: a hostile answer of 10⁵ items stays bounded.
  if (item !== undefined) return responseArray(strictSchemaOf(item) as z.ZodMiniType<unknown, unknown>);
  const known = knownValuesOf(schema);
  if (known !== undefined) return z.enum(known as [string, ...string[]]);
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  if (def.type === "object") {
    const shape = def.shape as Record<string, Schema>;
    const strictShape = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, strictSchemaOf(v)]));
    return z.core.clone(schema, { ...def, shape: strictShape, catchall: z.never() } as typeof def);
  }
  if (def.type === "union") {
    const options = (def.options as Schema[]).map(strictSchemaOf);
    return z.core.clone(schema, { ...def, options } as typeof def);
  }
  if (def.type === "pipe") {
    return z.core.clone(schema, { ...def, in: strictSchemaOf(def.in as Schema) } as typeof def);
  }
  const inner = WRAPPERS[def.type];
  if (inner === undefined) return schema;
  return z.core.clone(schema, { ...def, [inner]: strictSchemaOf(def[inner] as Schema) } as typeof def);
}

/** The drift of a body against a response schema, one entry per field path and kind, in the order found. */
export function driftOf(schema: Schema, body: unknown): DriftEntry[] {
  const parsed = z.safeParse(strictSchemaOf(schema), body, PARSE_CONTEXT);
  if (parsed.success) return [];
  const entries = new Map<string, DriftEntry>();
  const add = (path: readonly PathKey[], kind: DriftKind) => {
    const entry = { path: fieldPath(path), kind };
    entries.set(`${entry.kind} ${entry.path}`, entry);
  };
  for (const issue of parsed.error.issues) {
    // Items past the drift budget are counted, not read: that count is no difference of the service's.
    if (isNotExaminedIssue(issue)) continue;
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add([...issue.path, key], "extra");
    } else if (valueAt(body, issue.path) === undefined) {
      add(issue.path, "missing");
    } else {
      add(issue.path, issue.code === "invalid_value" ? "enum" : "type");
    }
  }
  return [...entries.values()];
}
