/**
 * The rules of the client's options and of per-call options: what each accepts, worded as the message a caller
 * reads. Messages describe a wrong value by its type, never by its text: a key pasted into the wrong option must
 * not reach a message or a log.
 *
 * @module
 */
import type {
  ClientOptions,
  Credentials,
  Hooks,
  Logger,
  LogLevel,
  ResponseValidation,
} from "../core/options.js";
import type { TelemetryOptions } from "../core/telemetry/options.js";
import { headerNameProblem, headerValueTextProblem, RESERVED_HEADERS } from "./headers.js";
import { describeType, type ProblemOf } from "./issues.js";
import { API_VERSION_RE } from "./rules.js";

/** The largest delay a timer can hold (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;
/** Printable ASCII without spaces: what a key or id may hold and still be a safe header value. */
export const HEADER_TOKEN = /^[\x21-\x7e]+$/;

export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "off"];
export const RESPONSE_VALIDATIONS: readonly ResponseValidation[] = ["strict", "tolerant"];

/**
 * How a message describes a wrong value: its type, never its text (a key pasted into the wrong option would then be
 * quoted), with a number's value, and the likely fix for a number written as a string.
 */
export function got(value: unknown): string {
  if (typeof value === "number") return `${describeType(value)} (${value})`;
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) {
    return "a string: write the number without quotes";
  }
  return describeType(value);
}

/** True when `text` holds the client's API key: such a value is refused and never quoted. */
export function holdsKey(text: string, credentials: Credentials): boolean {
  return credentials.scheme === "apiKey" && text.toLowerCase().includes(credentials.apiKey.toLowerCase());
}

export function booleanProblem(value: unknown): string | undefined {
  return typeof value === "boolean" ? undefined : `must be true or false: got ${got(value)}`;
}

/** A function, or `undefined` where a part may be left out (a hook, a logger method). */
export function functionProblem(value: unknown): string | undefined {
  return value === undefined || typeof value === "function"
    ? undefined
    : `must be a function: got ${got(value)}`;
}

/** The rule of an option that takes one of a few strings. */
export function oneOfProblem(values: readonly string[]): ProblemOf {
  const listed = values.map((value) => `"${value}"`).join(", ");
  return (value) =>
    values.includes(value as string) ? undefined : `must be one of ${listed}: got ${got(value)}`;
}

/** What is wrong with a positive whole count (bytes, sockets), or `undefined`. */
export function sizeProblem(value: unknown): string | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1
    ? undefined
    : `must be a whole number of at least 1: got ${got(value)}`;
}

/** What is wrong with an API version label, or `undefined` when it is fine. */
export function apiVersionProblem(value: unknown): string | undefined {
  return typeof value === "string" && API_VERSION_RE.test(value)
    ? undefined
    : `must be YYYY-MM-DD with an optional suffix, like 2026-02-19.preview: got ${got(value)}`;
}

/** What is wrong with a retry count, or `undefined`. */
export function countProblem(value: unknown): string | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 10
    ? undefined
    : `must be an integer from 0 to 10: got ${got(value)}`;
}

/** What is wrong with a duration in milliseconds, or `undefined`. */
export function durationProblem(value: unknown, min: number): string | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= min && value <= MAX_TIMER_MS
    ? undefined
    : `must be a number of milliseconds from ${min} to ${MAX_TIMER_MS}: got ${got(value)}`;
}

/** A duration that may be 0 (a delay, a wait). */
export const delayProblem: ProblemOf = (value) => durationProblem(value, 0);

/** What is wrong with a value sent as a header (an id, a key), or `undefined`. */
export function headerValueProblem(value: unknown): string | undefined {
  return typeof value === "string" && HEADER_TOKEN.test(value) && value.length <= 255
    ? undefined
    : "must be 1 to 255 printable characters without spaces";
}

/**
 * The options that hold one value, each with the rule it is checked by. The rule words the message, so every option
 * of a kind (a duration, a count, a switch…) is refused alike.
 */
export const SETTINGS = {
  dangerouslyAllowBrowser: booleanProblem,
  allowInsecureHttp: booleanProblem,
  merchantId: headerValueProblem,
  apiVersion: apiVersionProblem,
  timeoutMs: (value: unknown) => durationProblem(value, 1),
  maxRetries: countProblem,
  fetch: functionProblem,
  responseValidation: oneOfProblem(RESPONSE_VALIDATIONS),
  maxResponseBytes: sizeProblem,
  maxSockets: sizeProblem,
  logLevel: oneOfProblem(LOG_LEVELS),
  telemetry: telemetryProblem,
} satisfies Partial<Record<keyof ClientOptions, ProblemOf>>;

/** How an option that is an object of named parts is checked. */
export interface Group {
  /** Each part's rule. A part left out (or `undefined`, where its rule allows it) is not checked further. */
  parts: Record<string, ProblemOf>;
  /** True when no other name is allowed (a misspelt part is refused with the nearest name). */
  closed: boolean;
  /** An example of what the object is, for the message when it is not an object. */
  example?: string;
}

/** The options that are objects of named parts. */
export const GROUPS = {
  retry: {
    parts: {
      baseDelayMs: delayProblem,
      maxDelayMs: delayProblem,
      maxRetryAfterMs: delayProblem,
    } satisfies Record<keyof NonNullable<ClientOptions["retry"]>, ProblemOf>,
    closed: true,
  },
  hooks: {
    parts: {
      onRequest: functionProblem,
      onResponse: functionProblem,
      onRetry: functionProblem,
      onDrift: functionProblem,
    } satisfies Record<keyof Hooks, ProblemOf>,
    closed: true,
  },
  // A logger has other members too (pino's `child`, console's `table`): only the four the SDK calls are checked.
  logger: {
    parts: {
      debug: functionProblem,
      info: functionProblem,
      warn: functionProblem,
      error: functionProblem,
    } satisfies Record<keyof Logger, ProblemOf>,
    closed: false,
    example: "console or a pino logger",
  },
} satisfies Record<string, Group>;

/** The options checked by rules of their own: the credentials, the address and the headers. */
const OWN_RULE_OPTIONS = [
  "apiKey",
  "appId",
  "clientId",
  "baseUrl",
  "versionHeader",
  "defaultHeaders",
] as const;

/** Every constructor option, so that a misspelt one is refused with the nearest name. */
export const OPTION_NAMES: readonly string[] = [
  ...OWN_RULE_OPTIONS,
  ...Object.keys(SETTINGS),
  ...Object.keys(GROUPS),
];

/** Compiles only while {@link OPTION_NAMES} covers every option of {@link ClientOptions}. */
type Uncovered = Exclude<
  keyof ClientOptions,
  (typeof OWN_RULE_OPTIONS)[number] | keyof typeof SETTINGS | keyof typeof GROUPS
>;
const EVERY_OPTION_COVERED: [Uncovered] extends [never] ? true : Uncovered = true;
void EVERY_OPTION_COVERED;

/** The version header is `<Service>-Version` (the interface document's own form), never a header the SDK sets. */
export function versionHeaderProblem(name: unknown, credentials: Credentials): string | undefined {
  const advice = "give `<Service>-Version`, with your service's short prefix";
  if (typeof name !== "string") return `must be a header name: got ${got(name)}; ${advice}`;
  if (holdsKey(name, credentials)) return `holds the API key, not a header name: ${advice}`;
  if (headerNameProblem(name) !== undefined) return `is not a valid header name: ${advice}`;
  const lower = name.toLowerCase();
  if (RESERVED_HEADERS.has(lower)) return `may not name ${lower}, a header the SDK sets itself: ${advice}`;
  if (!/^[^-]+(-[^-]+)*-version$/.test(lower)) return `must end in -Version: ${advice}`;
  return undefined;
}

/** What is wrong with one default header, as a whole sentence, or `undefined`. Quotes a name only once it is safe. */
export function defaultHeaderProblem(
  name: string,
  value: unknown,
  versionHeader: string | undefined,
  credentials: Credentials,
): string | undefined {
  if (holdsKey(name, credentials) || (typeof value === "string" && holdsKey(value, credentials))) {
    return "defaultHeaders holds the API key: the SDK sends it in its own header, never in another one";
  }
  const nameProblem = headerNameProblem(name);
  if (nameProblem !== undefined) return `defaultHeaders: each name ${nameProblem}`;
  const lower = name.toLowerCase();
  if (RESERVED_HEADERS.has(lower)) return `defaultHeaders may not set ${name}: the SDK sets it itself`;
  if (lower === versionHeader?.toLowerCase()) {
    return `defaultHeaders may not set ${name}: it is the versionHeader, which apiVersion fills`;
  }
  const valueProblem = headerValueTextProblem(value);
  return valueProblem === undefined ? undefined : `defaultHeaders.${name} ${valueProblem}: got ${got(value)}`;
}

/** The parts of a `telemetry` object and the method each provider must have. */
const TELEMETRY_PARTS: Record<keyof TelemetryOptions, string> = {
  tracerProvider: "getTracer",
  meterProvider: "getMeter",
};

/** What is wrong with a `telemetry` option, or `undefined`. Describes a wrong value by its type, never its text. */
export function telemetryProblem(value: unknown): string | undefined {
  if (typeof value === "boolean") return undefined;
  const advice = "must be true, false or { tracerProvider?, meterProvider? }";
  if (typeof value !== "object" || value === null || Array.isArray(value)) return advice;
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(TELEMETRY_PARTS, name)) return `${advice}: ${quoteName(name)} is not one of them`;
  }
  for (const [part, method] of Object.entries(TELEMETRY_PARTS)) {
    const provider: unknown = (value as Record<string, unknown>)[part];
    if (provider === undefined) continue;
    if (typeof (provider as Record<string, unknown> | null)?.[method] !== "function") {
      return `${advice}: ${part} must be an OpenTelemetry ${part.replace("Provider", "")} provider (with ${method}())`;
    }
  }
  return undefined;
}

/** A misspelt part's name, quoted only when it is short and plain (a pasted key is neither). */
function quoteName(name: string): string {
  return /^[A-Za-z]{1,30}$/.test(name) ? name : "a part";
}
