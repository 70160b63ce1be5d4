/**
 * The wording of zod issues, shared by input checking (`input.ts`) and response reading (`parse.ts`): the error map
 * that words a raw issue without a subject, and the flattening of issues into one entry per offending field.
 *
 * `zod/mini` ships no message locale, so this module words the messages itself.
 *
 * @module
 */
import type * as z from "zod/mini";
import { describeType, nearestName } from "../validate/issues.js";

type RawIssue = z.core.$ZodRawIssue;
type Issue = z.core.$ZodIssue;
export type PathKey = PropertyKey;

/**
 * Words a raw zod issue as a message without a subject (`is required`, `must be a string, got a number`). Used as the
 * per-parse error map; messages set on a schema take precedence over it. The schemas use objects, strings, booleans,
 * arrays and refinements only, so a wrong type is the only issue left to word here (`flatten` words unknown keys).
 */
function errorMap(issue: RawIssue): string | undefined {
  if (issue.code !== "invalid_type") return undefined;
  if (issue.input === undefined) return "is required";
  return `must be ${article(issue.expected)}, got ${describeType(issue.input)}`;
}

/** `a string`, `an object`: the expected type with its article. */
export function article(expected: string): string {
  return `${expected === "object" || expected === "array" ? "an" : "a"} ${expected}`;
}

/**
 * The parse context (error map) of every parse the SDK runs, for schemas that parse a nested value themselves.
 *
 * @internal
 */
export const PARSE_CONTEXT: z.core.ParseContext<z.core.$ZodIssue> = { error: errorMap };

/**
 * An issue standing for the same problem at the same field of many array items (see `responseArray`): its path is
 * the first item's, `occurrences` how many items had it.
 */
export type GroupedIssue = Issue & { occurrences?: number };

/** One flattened problem: where it is (path segments) and what is wrong (subject-less message). */
export interface FlatIssue {
  path: PathKey[];
  message: string;
  /** For a value of the wrong type: the type the schema expected (`string`, `object`, `array`, ...). */
  expected?: string;
  /** How many places had this problem at this field path (array items); 1 when absent. */
  occurrences?: number;
}

/** Turns zod issues into one entry per offending field: unknown keys become one entry per key. */
export function flatten(issues: readonly GroupedIssue[], prefix: PathKey[] = []): FlatIssue[] {
  const out: FlatIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      const missing = missingFieldsBeside(issues, issue.path);
      for (const key of issue.keys) {
        const nearest = nearestName(key, missing);
        const message = `is not a known field${nearest === undefined ? "" : `: did you mean ${nearest}?`}`;
        out.push({ path: [...path, key], message });
      }
      continue;
    }
    const flat: FlatIssue = { path, message: messageOf(issue) };
    if (issue.code === "invalid_type") flat.expected = issue.expected;
    if (issue.occurrences !== undefined && issue.occurrences > 1) flat.occurrences = issue.occurrences;
    out.push(flat);
  }
  return out;
}

/** The required fields missing from the object at `path`: what a misspelt field there most likely meant. */
function missingFieldsBeside(issues: readonly GroupedIssue[], path: readonly PathKey[]): string[] {
  const at = dotted(path);
  return issues
    .filter((issue) => issue.code === "invalid_type" && issue.path.length === path.length + 1)
    .filter((issue) => dotted(issue.path.slice(0, -1)) === at)
    .map((issue) => String(issue.path.at(-1)));
}

/** The issue's message, or a wording derived from its code when it carries only zod's generic one. */
function messageOf(issue: Issue): string {
  if (issue.message && issue.message !== "Invalid input") return issue.message;
  // A finalized issue no longer holds its input, so "is required" cannot be told from a wrong type.
  return issue.code === "invalid_type" ? `must be ${article(issue.expected)}` : "is invalid";
}

/** `settlements.crypto.0.id`: a path as the dotted text errors and drift show. */
export function dotted(path: readonly PathKey[]): string {
  return path.map((key) => String(key)).join(".");
}

/** `settlements.crypto.*.id`: the field a path points at, whatever the array item (an index is `*`). */
export function fieldPath(path: readonly PathKey[]): string {
  return path.map((key) => (typeof key === "number" ? "*" : String(key))).join(".");
}
