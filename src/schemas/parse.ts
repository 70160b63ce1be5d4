/**
 * Reading response bodies: {@link readResponse} runs a response schema in the client's mode (strict, or tolerant
 * with {@link Drift}), and the pieces response schemas are built with so that any answer reads in bounded time and
 * memory: `responseArray` (`response-array.ts`: issues grouped by field, not by item), {@link decisive} (fields read
 * strictly in every mode) and {@link finishing} (a last step that also runs on a tolerated body).
 *
 * @module
 */
import * as z from "zod/mini";
import { safeParse } from "zod/mini";
import type { ResponseIssue } from "../errors.js";
import { describeType } from "../validate/issues.js";
import { readerOf } from "./compiled-reader.js";
import {
  article,
  dotted,
  type FlatIssue,
  fieldPath,
  flatten,
  PARSE_CONTEXT,
  type PathKey,
} from "./issues.js";
import { isNotExaminedIssue, MAX_DRIFT_ITEMS, withDriftBudget } from "./response-array.js";

type Schema = z.core.$ZodType;

/**
 * One deviation from the interface document found while reading a response in tolerant mode: where, what the
 * document leads the SDK to expect there, and what arrived, described (never the value of a string).
 */
export interface Drift {
  /**
   * Dotted path in the body (`""` for the body as a whole), for example `settlements.crypto.0.id`; a deviation found
   * in several items of an array is reported once, at its field path (`settlements.crypto.*.id`).
   */
  path: string;
  /** What was expected there, for example `a string` or `null when isFinal is true` (never a received value). */
  expected: string;
  /**
   * What arrived: `missing`, `null`, a boolean, a number (at most 40 characters), `a string (N characters)`,
   * `an array (N items)` or `an object`, followed by `(N times)` when several items had it. A string's content is
   * never quoted: it could hold a secret.
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
 * How {@link readResponse} runs a schema: `compiled`, by the code zod generates for it once it was read twice where
 * the build allows (`compiled-reader.ts`; for the SDK's own schemas), or `interpreted`, by zod's interpreter (a
 * caller's schema: zod's compiled code may run a refinement or a transform twice on an answer it rejects).
 */
export type SchemaRunner = "compiled" | "interpreted";

/**
 * The most deviations one reading reports (as drift or as issues); the rest are counted in one last entry. A service
 * that drifts everywhere then costs a bounded number of events and log lines per call.
 */
export const MAX_REPORTED_DEVIATIONS = 20;

/** The drift of a reading without any (shared: the common case allocates no array). */
const NO_DRIFT: readonly Drift[] = Object.freeze([]);

/**
 * Reads a response body in the client's mode.
 *
 * - `strict`: any deviation from the interface document fails.
 * - `tolerant`: what arrived is returned, each deviation reported as a {@link Drift}, once per field path (30,000
 *   items missing `id` are one drift), at most {@link MAX_REPORTED_DEVIATIONS} per reading. Once an array deviates,
 *   at most {@link MAX_DRIFT_ITEMS} items are examined; one more drift counts the items that were not. No value is invented: a
 *   missing field stays missing, a mistyped one keeps the type it arrived with. Only the structure is kept: where the
 *   document shows an object or an array (the body itself, `merchant`, `settlements.crypto`, an item of `actions`,
 *   ...), one must arrive, and a {@link decisive} field (a status result's `status`) must be as documented, or the
 *   reading fails as in strict mode (code that walks into it would otherwise throw a `TypeError`). Money rules never
 *   relax: a contradictory status answer (say `succeeded` with `isFinal: false`) is returned as it arrived, with
 *   drift, never "fixed"; it reads as fulfillable only when `status` is `succeeded` and `isFinal` is `true`.
 *
 * CONTRACT for the transport: call it once per 2xx body; on `success: false` throw `ResponseValidationError` with
 * `issues`; report each `drift` entry as a `DriftEvent` (it holds no secret: strings are described, never quoted).
 * `drift` is always empty in strict mode.
 */
export function readResponse<S extends Schema>(
  schema: S,
  body: unknown,
  mode: ReadingMode,
  runner: SchemaRunner = "interpreted",
): ResponseReading<z.output<S>> {
  const reader = runner === "compiled" ? readerOf(schema) : schema;
  const parsed = withDriftBudget(() => safeParse(reader, body, PARSE_CONTEXT));
  // zod hands an answer its compiled reader rejects to the interpreter, after the compiled pass may have spent drift
  // budget: read again, interpreted, with the whole budget, so that every reading of an answer reports the same.
  const read =
    parsed.success || reader === schema
      ? parsed
      : withDriftBudget(() => safeParse(schema, body, PARSE_CONTEXT));
  if (read.success) return { success: true, data: read.data as z.output<S>, drift: NO_DRIFT };
  const deviations = byFieldPath(flatten(read.error.issues));
  const fails = (deviation: Deviation) => breaksStructure(deviation.issue) || isDecisive(schema, deviation);
  if (mode === "strict" || deviations.some(fails)) {
    return { success: false, issues: capped(deviations.map(toResponseIssue), tooManyIssues) };
  }
  const drift = capped(
    deviations.map((deviation) => toDrift(deviation, body)),
    tooManyDrifts,
  );
  const finish = finishers.get(schema);
  return { success: true, data: (finish ? finish(body) : body) as z.output<S>, drift };
}

/** The problems at one field path: the first one found, and how many places had it. */
interface Deviation {
  issue: FlatIssue;
  /** The dotted path: the first place's when there is one, else the field path (`items.*.id`). */
  path: string;
  occurrences: number;
}

/** Groups issues by field path and message, in the order they were first found. */
function byFieldPath(issues: readonly FlatIssue[]): Deviation[] {
  const groups = new Map<string, Deviation>();
  for (const issue of issues) {
    const field = fieldPath(issue.path);
    const key = `${field}\u0000${issue.message}`;
    const count = issue.occurrences ?? 1;
    const seen = groups.get(key);
    if (seen === undefined) {
      groups.set(key, { issue, path: count > 1 ? field : dotted(issue.path), occurrences: count });
    } else {
      seen.occurrences += count;
      seen.path = field;
    }
  }
  return [...groups.values()];
}

function times(deviation: Deviation): string {
  return deviation.occurrences > 1 ? ` (${deviation.occurrences} times)` : "";
}

function toResponseIssue(deviation: Deviation): ResponseIssue {
  if (isNotExaminedIssue(deviation.issue)) {
    return { path: deviation.path, message: `${notExamined(deviation)}: not examined for deviations` };
  }
  return { path: deviation.path, message: `${deviation.issue.message}${times(deviation)}` };
}

/** `299000 more items`: the items past the drift budget. */
function notExamined(deviation: Deviation): string {
  return `${deviation.occurrences} more item${deviation.occurrences === 1 ? "" : "s"}`;
}

/** At most {@link MAX_REPORTED_DEVIATIONS} entries, then one that counts the rest. */
function capped<T>(entries: T[], rest: (count: number) => T): T[] {
  if (entries.length <= MAX_REPORTED_DEVIATIONS) return entries;
  const kept = entries.slice(0, MAX_REPORTED_DEVIATIONS);
  kept.push(rest(entries.length - MAX_REPORTED_DEVIATIONS));
  return kept;
}

function tooManyIssues(count: number): ResponseIssue {
  return { path: "", message: `and ${count} more deviations, not listed` };
}

function tooManyDrifts(count: number): Drift {
  return {
    path: "",
    expected: `at most ${MAX_REPORTED_DEVIATIONS} deviations reported per answer`,
    received: `${count} more deviations, not reported`,
  };
}

/** True when an object or an array was expected and something else arrived (or the body as a whole is wrong). */
function breaksStructure(issue: FlatIssue): boolean {
  return issue.path.length === 0 || issue.expected === "object" || issue.expected === "array";
}

function toDrift(deviation: Deviation, body: unknown): Drift {
  const { issue } = deviation;
  if (isNotExaminedIssue(issue)) {
    return {
      path: deviation.path,
      expected: `at most ${MAX_DRIFT_ITEMS} items examined for deviations per answer once one deviates`,
      received: `${notExamined(deviation)}, not examined`,
    };
  }
  return {
    path: deviation.path,
    expected: expectedOf(issue),
    received: `${describeReceived(valueAt(body, issue.path))}${times(deviation)}`,
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

/** The value at a path of a body, or `undefined` where the path leads nowhere. */
export function valueAt(body: unknown, path: readonly PathKey[]): unknown {
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
// Building blocks of response schemas
// ---------------------------------------------------------------------------------------------

/** The field paths of each schema registered by {@link decisive}. */
const decisiveFields = new WeakMap<Schema, ReadonlySet<string>>();

/**
 * Marks fields of a response schema as decisive: the merchant's code acts on them (a status result's `status`), so
 * a deviation there fails the reading in tolerant mode too, instead of handing over a value its type does not
 * describe. `fields` are field paths (`status`, `items.*.id`).
 */
export function decisive<S extends Schema>(schema: S, fields: readonly string[]): S {
  decisiveFields.set(schema, new Set(fields));
  return schema;
}

function isDecisive(schema: Schema, deviation: Deviation): boolean {
  return decisiveFields.get(schema)?.has(fieldPath(deviation.issue.path)) ?? false;
}

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
