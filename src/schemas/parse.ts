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
import { InputValidationError, type ResponseIssue } from "../errors.js";
import { inputIssue } from "../validate/issues.js";
import { describeType } from "./common.js";

type Schema = z.core.$ZodType;
type RawIssue = z.core.$ZodRawIssue;
type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

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

function article(expected: string): string {
  return `${expected === "object" || expected === "array" ? "an" : "a"} ${expected}`;
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

/** Turns zod issues into one entry per offending field: unknown keys become one entry per key. */
function flatten(issues: readonly Issue[], prefix: PathKey[] = []): FlatIssue[] {
  const out: FlatIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ path: [...path, key], message: "is not a known field" });
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
  return issue.code === "invalid_type" ? `must be ${article(issue.expected)}` : "is invalid";
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
  const issues = flatten(parsed.error.issues, prefix).map((issue) =>
    inputIssue(issue.path.length === 0 ? "input" : dotted(issue.path), issue.message),
  );
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
export type ResponseParseResult<T> = { success: true; data: T } | { success: false; issues: ResponseIssue[] };

/**
 * Parses a response body with human messages (`is required`, `must be a string, got null`).
 * Does not throw; the transport builds `ResponseValidationError` from `issues`.
 */
export function parseResponse<S extends Schema>(schema: S, body: unknown): ResponseParseResult<z.output<S>> {
  const parsed = safeParse(schema, body, PARSE_CONTEXT);
  if (parsed.success) return { success: true, data: parsed.data as z.output<S> };
  return { success: false, issues: toResponseIssues(parsed.error) };
}

/** One deviation found in tolerant reading: where, what the document leads us to expect, what arrived (described). */
export interface Drift {
  /** Dotted path in the body (`""` for the body as a whole). */
  path: string;
  /** What was expected there. */
  expected: string;
  /** What arrived, described by type or a short value; never a whole value. */
  received: string;
}

/** The outcome of {@link readResponse}. */
export type ResponseReading<T> =
  | { success: true; data: T; drift: readonly Drift[] }
  | { success: false; issues: ResponseIssue[] };

/**
 * Reads a response body in the client's mode. `strict`: any deviation fails. `tolerant`: what arrived is returned
 * with each deviation as a {@link Drift}, except where a money rule would relax (those still fail).
 *
 * CONTRACT for the policy (core): call it once per 2xx body; on `success: false` throw `ResponseValidationError`;
 * report each `drift` entry as a `DriftEvent`.
 */
export function readResponse<S extends Schema>(
  schema: S,
  body: unknown,
  mode: "strict" | "tolerant",
): ResponseReading<z.output<S>> {
  const parsed = parseResponse(schema, body);
  if (parsed.success) return { success: true, data: parsed.data, drift: [] };
  if (mode === "strict") return parsed;
  // Placeholder until the schemas say which deviations a money rule forbids: every deviation is drift.
  const drift = parsed.issues.map((issue) => ({ path: issue.path, expected: issue.message, received: "" }));
  return { success: true, data: body as z.output<S>, drift };
}
