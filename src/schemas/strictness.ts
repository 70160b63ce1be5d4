/**
 * What the tolerant building blocks leave open, kept for a strict reading: the item schema behind each
 * `responseArray` (hidden inside its chunked transform), the known values of each open enum (which any string
 * passes), and the objects open by design (whose field names the document leaves open). `strictSchemaOf` (the doctor's) rebuilds a response schema with unknown fields and unknown enum values
 * refused, from these.
 *
 * @module
 */
import type * as z from "zod/mini";

type Schema = z.core.$ZodType;

const arrayItems = new WeakMap<Schema, Schema>();
const knownValues = new WeakMap<Schema, readonly string[]>();
const openByDesign = new WeakSet<Schema>();

/**
 * Records an object whose other fields are the point (a created payment's wallet link is in a field the document
 * leaves unnamed; a merchant list item's shape is not shown): a strict reading keeps it open.
 */
export function keepOpen<S extends Schema>(schema: S): S {
  openByDesign.add(schema);
  return schema;
}

/** True for an object recorded by {@link keepOpen}. */
export function isKeptOpen(schema: Schema): boolean {
  return openByDesign.has(schema);
}

/** Records the item schema of a response array built around it. */
export function rememberArrayItem<S extends Schema>(array: S, item: Schema): S {
  arrayItems.set(array, item);
  return array;
}

/** Records the values an open enum knows. */
export function rememberKnownValues<S extends Schema>(schema: S, values: readonly string[]): S {
  knownValues.set(schema, values);
  return schema;
}

/** The item schema of a response array, or `undefined` for any other schema. */
export function arrayItemOf(schema: Schema): Schema | undefined {
  return arrayItems.get(schema);
}

/** The known values of an open enum, or `undefined` for any other schema. */
export function knownValuesOf(schema: Schema): readonly string[] | undefined {
  return knownValues.get(schema);
}
