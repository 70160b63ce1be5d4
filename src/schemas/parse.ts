/**
 * Running schemas: {@link parseInput} for arguments (throws {@link InputValidationError}, nothing is
 * sent), {@link parseResponse} and {@link toResponseIssues} for bodies that came back.
 *
 * `zod/mini` ships no message locale, so this module words the messages itself.
 *
 * @module
 */
import * as z from "zod/mini";
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
  /** For a value of the wrong type: the type the schema expected (`string`, `object`, `array`, ...). */
  expected?: string;
}

/** Turns zod issues into one entry per offending field: unknown keys become one entry per key. */
function flatten(issues: readonly Issue[], prefix: PathKey[] = []): FlatIssue[] {
  const out: FlatIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ path: [...path, key], message: "is not a known field" });
    } else {
      const flat: FlatIssue = { path, message: messageOf(issue) };
      if (issue.code === "invalid_type") flat.expected = issue.expected;
      out.push(flat);
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

/**
 * One deviation from the interface document found while reading a response in tolerant mode: where, what the
 * document leads the SDK to expect there, and what arrived, described (never the value of a string).
 */
export interface Drift {
  /** Dotted path in the body (`""` for the body as a whole), for example `settlements.crypto.0.id`. */
  path: string;
  /** What was expected there, for example `a string` or `null when isFinal is true`. */
  expected: string;
  /**
   * What arrived: `missing`, `null`, a boolean, a number (at most 40 characters), `a string (N characters)`,
   * `an array (N items)` or `an object`. A string's content is never quoted: it could hold a secret.
   */
  received: string;
}

/** The outcome of {@link readResponse}. */
export type ResponseReading<T> =
  | { success: true; data: T; drift: readonly Drift[] }
  | { success: false; issues: ResponseIssue[] };

/** The reading modes of {@link readResponse}. */
export type ReadingMode = "strict" | "tolerant";

/**
 * Reads a response body in the client's mode.
 *
 * - `strict`: any deviation from the interface document fails.
 * - `tolerant`: what arrived is returned, each deviation reported as a {@link Drift}, one per field. No value is
 *   invented: a missing field stays missing, a mistyped one keeps the type it arrived with. Only the structure is
 *   kept: where the document shows an object or an array (the body itself, `merchant`, `settlements.crypto`, an
 *   item of `actions`, ...), one must arrive, or the reading fails as in strict mode (code that walks into it would
 *   otherwise throw a `TypeError`). Money rules never relax: a contradictory status answer (say `succeeded` with
 *   `isFinal: false`) is returned as it arrived, with drift, never "fixed"; it reads as fulfillable only when
 *   `status` is `succeeded` and `isFinal` is `true` (see `isFulfillable`).
 *
 * CONTRACT for the policy (core): call it once per 2xx body; on `success: false` throw `ResponseValidationError`
 * with `issues`; report each `drift` entry as a `DriftEvent` (it holds no secret: strings are described, never
 * quoted). `drift` is always empty in strict mode.
 */
export function readResponse<S extends Schema>(
  schema: S,
  body: unknown,
  mode: ReadingMode,
): ResponseReading<z.output<S>> {
  const parsed = safeParse(schema, body, PARSE_CONTEXT);
  if (parsed.success) return { success: true, data: parsed.data as z.output<S>, drift: [] };
  const issues = flatten(parsed.error.issues);
  const failed = { success: false as const, issues: issues.map(toResponseIssue) };
  if (mode === "strict" || issues.some(breaksStructure)) return failed;
  const drift = issues.map((issue) => toDrift(issue, body));
  const finish = finishers.get(schema);
  return { success: true, data: (finish ? finish(body) : body) as z.output<S>, drift };
}

function toResponseIssue(issue: FlatIssue): ResponseIssue {
  return { path: dotted(issue.path), message: issue.message };
}

/** True when an object or an array was expected and something else arrived (or the body as a whole is wrong). */
function breaksStructure(issue: FlatIssue): boolean {
  return issue.path.length === 0 || issue.expected === "object" || issue.expected === "array";
}

function toDrift(issue: FlatIssue, body: unknown): Drift {
  return {
    path: dotted(issue.path),
    expected: expectedOf(issue),
    received: describeReceived(valueAt(body, issue.path)),
  };
}

/** What was expected, worded without a subject: `a string`, `null when isFinal is true`, `present on ...`. */
function expectedOf(issue: FlatIssue): string {
  if (issue.expected !== undefined && /^(is required|must be an? )/.test(issue.message)) {
    return article(issue.expected);
  }
  if (issue.message.startsWith("must be ")) return issue.message.slice("must be ".length);
  if (issue.message.startsWith("is required")) return `present${issue.message.slice("is required".length)}`;
  return issue.message;
}

function valueAt(body: unknown, path: readonly PathKey[]): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const MAX_RECEIVED_CHARS = 40;

/** Describes a value that arrived: by type, or by value for a boolean or a number; a string only by its length. */
export function describeReceived(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "number") return String(value).slice(0, MAX_RECEIVED_CHARS);
  if (typeof value === "string") return `a string (${value.length} characters)`;
  if (Array.isArray(value)) return `an array (${value.length} items)`;
  return describeType(value);
}

// ---------------------------------------------------------------------------------------------
// Finished responses
// ---------------------------------------------------------------------------------------------

type Finish = (value: unknown) => unknown;

/** The finishing step of each schema built by {@link finishing}, to run on a body read tolerantly too. */
const finishers = new WeakMap<Schema, Finish>();

/**
 * A response schema whose parsed value is then finished by `finish` (for example: the SDK's stable names for a
 * field whose name the document leaves open, or a decoded view). In tolerant mode `finish` also runs on a body that
 * did not fully match `schema` (its structure did), so it must read leaves defensively and never invent a value.
 */
export function finishing<S extends Schema, T>(
  schema: S,
  finish: (value: z.output<S>) => T,
): z.ZodMiniType<T, z.input<S>> {
  const finished = z.pipe(schema, z.transform(finish));
  finishers.set(finished, finish as Finish);
  return finished;
}
