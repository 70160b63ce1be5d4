/**
 * The options every method takes last (`RequestOptions`), their rules, and the hints that steer an option given in
 * the wrong place (an input, a query) to where it belongs.
 *
 * @module
 */
import { type InputIssue, InputValidationError } from "../errors.js";
import type { ProblemOf } from "../validate/issues.js";
import {
  checkOptions,
  describeType,
  inputIssue,
  invalidInput,
  isRecord,
  nearestName,
} from "../validate/issues.js";
import { apiVersionProblem, countProblem, durationProblem, headerValueProblem } from "../validate/options.js";

/** Options every method takes last. Each overrides the client's setting for this one call. */
export interface RequestOptions {
  /** Abort the call: pending attempts and retry waits stop at once with a `UserAbortError`. */
  signal?: AbortSignal | undefined;
  /** Time allowed for each attempt, in milliseconds (headers and body). */
  timeoutMs?: number | undefined;
  /** Retries allowed for this call. */
  maxRetries?: number | undefined;
  /** The `Idempotency-Key` to send. Reuse the same key when you repeat a call yourself (after a crash, say). */
  idempotencyKey?: string | undefined;
  /** `Merchant-Id` for payment operations, instead of the client's default. */
  merchantId?: string | undefined;
  /** API version to pin for this call (needs the client's `versionHeader`). */
  apiVersion?: string | undefined;
  /**
   * Extra headers, as a plain object of names to strings. Checked before sending: names and values as fetch accepts
   * them, and none the SDK sets itself (credentials, `Merchant-Id`, `Idempotency-Key`, the version header) or that
   * frame the message (`Content-Length`, `Host`, `Transfer-Encoding`, …).
   */
  headers?: Record<string, string> | undefined;
}

/** The names {@link RequestOptions} accepts. */
export const REQUEST_OPTION_NAMES: readonly (keyof RequestOptions)[] = [
  "signal",
  "timeoutMs",
  "maxRetries",
  "idempotencyKey",
  "merchantId",
  "apiVersion",
  "headers",
];

/** The checks of per-call option values, made before anything is sent. */
const REQUEST_OPTION_CHECKS: Record<keyof RequestOptions, ProblemOf> = {
  signal: (signal) => (signal instanceof AbortSignal ? undefined : "must be an AbortSignal"),
  timeoutMs: (ms) => durationProblem(ms, 1),
  maxRetries: countProblem,
  idempotencyKey: headerValueProblem,
  merchantId: headerValueProblem,
  apiVersion: apiVersionProblem,
  headers: (headers) =>
    isPlainObject(headers)
      ? undefined
      : `must be a plain object of header names to strings, got ${describeType(headers)}`,
};

/**
 * Checks per-call options before anything is sent: an object, only known names (with the nearest valid name as
 * advice), valid values. `moreNames` are the other names the method takes in the same object (polling settings).
 *
 * @throws {InputValidationError} naming `options` or `options.<name>`.
 */
export function checkRequestOptions(options: unknown, moreNames: readonly string[] = []): void {
  if (!isRecord(options)) {
    throw invalidInput("options", `must be an object of request options, got ${describeType(options)}`);
  }
  const known: readonly string[] = [...REQUEST_OPTION_NAMES, ...moreNames];
  const issues: InputIssue[] = [];
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const nearest = nearestName(name, known);
    issues.push(
      inputIssue(`options.${name}`, `is not an option${nearest ? `: did you mean ${nearest}?` : ""}`),
    );
  }
  if (issues.length > 0) throw new InputValidationError(issues);
  checkOptions(options, REQUEST_OPTION_CHECKS);
}

/**
 * Refuses a request option given inside a method's input (`merchants.list({ timeoutMs: 5 })`): sent to the service
 * it would be dropped silently. `call` is how the method is called, for the advice.
 */
export function refuseMisplacedOptions(input: unknown, root: string, call: string): void {
  if (!isRecord(input)) return;
  const name = misplacedOption(input);
  if (name === undefined) return;
  const args = call.slice(call.indexOf("(") + 1, call.lastIndexOf(")")).split(", ");
  const example = call.replace(/options\)$/, `{ ${name} })`);
  throw invalidInput(
    `${root}.${name}`,
    `is a request option: pass it as the ${ORDINALS[args.length - 1]} argument, ${example}`,
  );
}

const ORDINALS = ["first", "second", "third", "fourth", "fifth"];

const OPTION_NAMES: ReadonlySet<string> = new Set(REQUEST_OPTION_NAMES);

/**
 * The first of the input's keys that names a request option. The input's few keys are looked up in a set: asking
 * `name in input` for each option name made one lookup by a changing name per option on every call (1,600
 * instructions a `payments.create()`, counted under valgrind).
 */
function misplacedOption(input: Record<string, unknown>): string | undefined {
  for (const key in input) if (OPTION_NAMES.has(key)) return key;
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
