/**
 * The one vocabulary of input problems: every `InputIssue` the SDK (and its mock) reports is worded
 * `<field> <problem>`. Below `core/` and `schemas/`: it imports nothing of theirs.
 *
 * @module
 */
import { type InputIssue, InputValidationError } from "../errors.js";

/** True for a plain object (a JSON object, a record): not `null`, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `typeof`, with `null`, `undefined` and arrays told apart (`a string`, `an array`, `undefined`). Used in messages. */
export function describeType(value: unknown): string {
  if (value == null) return String(value);
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

/** One input problem, its message led by the field's name: every `InputIssue` the SDK reports is worded so. */
export function inputIssue(field: string, problem: string): InputIssue {
  return { field, message: `${field} ${problem}` };
}

/**
 * An {@link InputValidationError} about one field, its message led by the field's name (`merchantId is required…`).
 *
 * @param field The field, as the caller named it (`options.apiVersion`, `url`).
 * @param problem What is wrong, without a subject (`must be a string`).
 */
export function invalidInput(field: string, problem: string): InputValidationError {
  return new InputValidationError([inputIssue(field, problem)]);
}

/** What is wrong with a value, worded without a subject, or `undefined` when it is fine. */
export type ProblemOf = (value: unknown) => string | undefined;

/**
 * Checks each option that is set (not `undefined`) with its own problem finder, and throws one
 * {@link InputValidationError} listing every problem, with fields named `options.<name>`.
 */
export function checkOptions(options: object, problems: Record<string, ProblemOf>): void {
  const issues: InputIssue[] = [];
  for (const [name, problemOf] of Object.entries(problems)) {
    const value = (options as Record<string, unknown>)[name];
    const problem = value === undefined ? undefined : problemOf(value);
    if (problem !== undefined) issues.push(inputIssue(`options.${name}`, problem));
  }
  if (issues.length > 0) throw new InputValidationError(issues);
}

/**
 * The candidate closest to a misspelt name (`baseURL` → `baseUrl`), for "did you mean" advice, or `undefined` when
 * none is close: an option whose name holds it, else the case-insensitive edit distance, at most a third of the
 * name's length.
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  // A name that is the end of a longer option (`retries` → `maxRetries`, `timeout` → `timeoutMs`) is that option.
  const part =
    lower.length >= 4 ? candidates.find((candidate) => candidate.toLowerCase().includes(lower)) : undefined;
  if (part !== undefined) return part;
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
