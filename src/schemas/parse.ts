/**
 * Running schemas: {@link parseInput} for arguments (throws {@link InputValidationError}, nothing is
 * sent), {@link parseResponse} and {@link toResponseIssues} for bodies that came back.
 *
 * `zod/mini` ships no message locale, so this module words the messages itself.
 *
 * @module
 */
import type * as z from "zod/mini";
import { safeParse } from "zod/mini";
import { type InputIssue, InputValidationError, type ResponseIssue } from "../errors.js";
import { describeType } from "./common.js";

type Schema = z.core.$ZodType;
type RawIssue = z.core.$ZodRawIssue;
type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

/**
 * Words a raw zod issue as a message without a subject (`is required`, `must be a string, got a
 * number`). Used as the per-parse error map; messages set on a schema take precedence over it.
 */
function errorMap(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "is required";
      return `must be ${article(issue.expected)}, got ${describeType(issue.input)}`;
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string")
        return min <= 1 ? "must not be empty" : `must be at least ${min} characters`;
      if (issue.origin === "array" || issue.origin === "set")
        return min <= 1 ? "must contain at least one item" : `must contain at least ${min} items`;
      return `must be ${issue.inclusive ? "at least" : "greater than"} ${String(issue.minimum)}`;
    }
    case "too_big": {
      if (issue.origin === "string") return `must be at most ${String(issue.maximum)} characters`;
      if (issue.origin === "array" || issue.origin === "set")
        return `must contain at most ${String(issue.maximum)} items`;
      return `must be ${issue.inclusive ? "at most" : "less than"} ${String(issue.maximum)}`;
    }
    case "invalid_value":
      return `must be ${issue.values.map((v) => JSON.stringify(v) ?? String(v)).join(" or ")}`;
    case "invalid_format":
      return `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "unrecognized_keys":
      return "is not a known field";
    case "invalid_key":
      return "has an invalid key";
    case "invalid_element":
      return "has an invalid element";
    case "invalid_union": {
      const options = "options" in issue && Array.isArray(issue.options) ? (issue.options as unknown[]) : [];
      if (options.length === 0) return "does not match any accepted shape";
      const words = options.map((option) => (option === undefined ? "omitted" : JSON.stringify(option)));
      return `must be ${words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words.at(-1)}` : words[0]}`;
    }
    default:
      return undefined;
  }
}

function article(expected: string): string {
  switch (expected) {
    case "object":
      return "an object";
    case "array":
      return "an array";
    case "int":
      return "an integer";
    case "undefined":
    case "null":
      return expected;
    default:
      return `a ${expected}`;
  }
}

/**
 * The parse context (error map) used by {@link parseInput} and {@link parseResponse}. For schemas
 * that parse a nested value themselves; not needed by callers of those two functions.
 *
 * @internal
 */
export const PARSE_CONTEXT: z.core.ParseContext<z.core.$ZodIssue> = { error: errorMap };

/** One flattened problem: where it is (path segments) and what is wrong (subject-less message). */
interface FlatIssue {
  path: PathKey[];
  message: string;
}

/**
 * Turns zod issues into one entry per offending field: unknown keys become one entry per key, and a
 * failed union reports the alternative that came closest (fewest problems) instead of all of them.
 */
function flatten(issues: readonly Issue[], prefix: PathKey[] = []): FlatIssue[] {
  const out: FlatIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ path: [...path, key], message: "is not a known field" });
    } else if (issue.code === "invalid_union" && issue.errors.length > 0) {
      let best = issue.errors[0]!;
      for (const branch of issue.errors) if (branch.length < best.length) best = branch;
      out.push(...flatten(best, path));
    } else {
      out.push({ path, message: messageOf(issue) });
    }
  }
  return out;
}

/** The issue's message, or a wording derived from its code when it carries only zod's generic one. */
function messageOf(issue: Issue): string {
  if (issue.message && issue.message !== "Invalid input") return issue.message;
  // A finalized issue no longer holds its input, so "is required" cannot be told from a wrong type.
  if (issue.code === "invalid_type") return `must be ${article(issue.expected)}`;
  return errorMap({ ...issue, input: null } as RawIssue) ?? "is invalid";
}

function dotted(path: readonly PathKey[]): string {
  return path.map((key) => String(key)).join(".");
}

/**
 * Validates an argument before anything is sent and returns the parsed value (with any trimming or
 * defaults applied).
 *
 * @param schema An input schema from this module.
 * @param value The caller's argument.
 * @param root Name of the argument, put in front of every field path (for example `settlements`
 *   gives `settlements.0.destination`). When omitted, paths start at the argument's fields and an
 *   argument that is wrong as a whole is reported as `input`.
 * @throws {InputValidationError} With one issue per offending field; `field` is the dotted path.
 */
export function parseInput<S extends Schema>(schema: S, value: unknown, root?: string): z.output<S> {
  const parsed = safeParse(schema, value, PARSE_CONTEXT);
  if (parsed.success) return parsed.data as z.output<S>;
  const prefix = root === undefined ? [] : [root];
  const issues: InputIssue[] = flatten(parsed.error.issues, prefix).map((issue) => {
    const field = issue.path.length === 0 ? "input" : dotted(issue.path);
    return { field, message: `${field} ${issue.message}` };
  });
  throw new InputValidationError(issues);
}

/**
 * Converts a zod error on a response body into `{ path, message }` entries for
 * `ResponseValidationError`. `path` is dotted (`""` for the body as a whole).
 */
export function toResponseIssues(error: z.core.$ZodError): ResponseIssue[] {
  return flatten(error.issues).map((issue) => ({ path: dotted(issue.path), message: issue.message }));
}

/** The outcome of {@link parseResponse}. */
export type ResponseParseResult<T> =
  | { success: true; data: T }
  | { success: false; issues: ResponseIssue[]; error: z.core.$ZodError };

/**
 * Parses a response body with human messages (`is required`, `must be a string, got null`).
 * Does not throw; the transport builds `ResponseValidationError` from `issues`.
 */
export function parseResponse<S extends Schema>(schema: S, body: unknown): ResponseParseResult<z.output<S>> {
  const parsed = safeParse(schema, body, PARSE_CONTEXT);
  if (parsed.success) return { success: true, data: parsed.data as z.output<S> };
  return { success: false, issues: toResponseIssues(parsed.error), error: parsed.error };
}
