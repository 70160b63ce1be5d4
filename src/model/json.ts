/**
 * JSON values as plain types: what the service sends where the document shows no shape.
 *
 * @module
 */

/** A JSON value: what the service sends where the document shows no shape. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}
