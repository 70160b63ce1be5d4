/**
 * The rules of custom operations (`client.request`): the body is the caller's own JSON, checked to be JSON before
 * anything is sent, and the answer, without a schema of the caller's, is any JSON value.
 *
 * @module
 */
import * as z from "zod/mini";
import { MAX_JSON_DEPTH } from "../errors.js";
import type { JsonValue } from "../model/json.js";
import { invalidInput, isRecord } from "../validate/issues.js";

/** Any JSON body a custom operation may get back; `undefined` for an empty one. */
export const anyJsonSchema: z.ZodMiniType<JsonValue | undefined> = z.custom<JsonValue | undefined>();

/**
 * A custom operation's body, sent as given once it is known to be JSON: `null`, a boolean, a finite number, a
 * string, an array or a plain object of those, at most {@link MAX_JSON_DEPTH} deep. `JSON.stringify` would
 * otherwise drop a function or an `undefined` item silently, turn `NaN` into `null`, or throw on a bigint.
 *
 * @throws {InputValidationError} naming the first place (`body.items.0.price`) that is not JSON.
 */
export function toJsonBody(input: unknown): unknown {
  const problem = jsonProblem(input, "body", 0);
  if (problem !== undefined) throw invalidInput(problem.field, problem.message);
  return input;
}

function jsonProblem(
  value: unknown,
  field: string,
  depth: number,
): { field: string; message: string } | undefined {
  if (depth > MAX_JSON_DEPTH) return { field, message: `must nest at most ${MAX_JSON_DEPTH} levels deep` };
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") {
    return Number.isFinite(value) ? undefined : { field, message: "must be a finite number" };
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const problem = jsonProblem(item, `${field}.${index}`, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  const prototype = isRecord(value) ? Object.getPrototypeOf(value) : undefined;
  if (prototype !== Object.prototype && prototype !== null) {
    return {
      field,
      message: "must be JSON: null, a boolean, a number, a string, an array or a plain object",
    };
  }
  for (const [name, item] of Object.entries(value as object)) {
    const problem = item === undefined ? undefined : jsonProblem(item, `${field}.${name}`, depth + 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
