import { ConfigurationError } from "../errors.js";
import { headerNameProblem, headerValueTextProblem, RESERVED_HEADERS } from "../validate/headers.js";
import { describeType, isRecord, nearestName, type ProblemOf } from "../validate/issues.js";
import { API_VERSION_RE, isLoopback } from "../validate/rules.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.js";
import { type TelemetryOption, telemetryProblem } from "./telemetry/options.js";

/** Credentials the client sends: a private API key, or the public App-Id with its Client-Id (wallet auth). */
export type Credentials =
  | {
      /** `"apiKey"`: authenticate with a private API key (`Api-Key` header). */
      scheme: "apiKey";
      /** The private API key. */
      apiKey: string;
    }
  | {
      /** `"appId"`: authenticate with a public App ID and its Client ID (wallet auth). */
      scheme: "appId";
      /** The public App ID (`App-Id` header). */
      appId: string;
      /** The Client ID sent with the App ID (`Client-Id` header). */
      clientId: string;
    };

/** Which of the account's two modes a key acts in. App-Id credentials do not say. */
export type Mode = "test" | "live" | "unknown";

/** What the SDK reports about each attempt. Payloads never hold headers, so never a credential. */
export interface RequestEvent {
  /** The HTTP method, e.g. `GET` or `POST`. */
  method: string;
  /** Path without host, e.g. `/v1/payments/pay_123/status`. */
  path: string;
  /** 0 for the first attempt, 1 for the first retry, and so on. */
  attempt: number;
  /** The `Idempotency-Key` sent with this attempt, if any (the same on every attempt of one call). */
  idempotencyKey: string | undefined;
}

/** An attempt that got an HTTP answer. */
export interface ResponseEvent extends RequestEvent {
  /** The HTTP status code of the answer. */
  status: number;
  /** Time from sending the attempt to reading the whole response body, in milliseconds. */
  durationMs: number;
  /** The request id the service returned in a response header, when it did. */
  requestId: string | undefined;
}

/** A retry about to be made. */
export interface RetryEvent extends RequestEvent {
  /** How long the SDK waits before the next attempt. */
  delayMs: number;
  /** Why it retries: an HTTP status (`"503"`), `"rate_limited"`, `"timeout"` or `"connection"`. */
  reason: string;
}

/**
 * A response that did not match the interface document, read in tolerant mode: what arrived was returned, and this
 * says where it differed. Never holds a credential.
 */
export interface DriftEvent {
  /** The operation, as `METHOD /path` with ids (for example `GET /v1/payments/pay_1/status`). */
  operation: string;
  /** Dotted path of the field in the body (`""` for the body as a whole). */
  path: string;
  /** What the document leads the SDK to expect there. */
  expected: string;
  /** What arrived, described (a type or a short value), never the full value. */
  received: string;
}

/** How responses are read. See {@link ClientOptions.responseValidation}. */
export type ResponseValidation = "strict" | "tolerant";

/** Observe the SDK's traffic (for metrics or tracing). Hooks run synchronously; an error they throw is ignored. */
export interface Hooks {
  /** Called before each attempt is sent. */
  onRequest?: (event: RequestEvent) => void;
  /** Called when an attempt gets an HTTP answer, successful or not. */
  onResponse?: (event: ResponseEvent) => void;
  /** Called before a failed attempt is retried. */
  onRetry?: (event: RetryEvent) => void;
  /** Called for each deviation from the interface document found while reading a response in tolerant mode. */
  onDrift?: (event: DriftEvent) => void;
}

/**
 * One log line as the SDK hands it to a logger: a single object holding the message and its fields, a call shape
 * that console, pino and winston all render with every field (pino and winston take an object's properties as a
 * structured line; `console` prints the object). Fields never hold a header or a credential.
 */
export interface LogRecord {
  /** What happened, led by `merchant-payments:` (for example `merchant-payments: GET /v1/… -> 200`). */
  message: string;
  /** The line's fields: method, path, attempt, duration, request id, retry reason… */
  [field: string]: unknown;
}

/**
 * Where the SDK writes its log lines: `console`, a pino or a winston logger as they are, or any object with these
 * methods. Each is called with one {@link LogRecord}; a level left out is not written, and a method that throws is
 * ignored. With pino, `pino({ messageKey: "message" })` also shows the SDK's message as pino's own.
 */
export interface Logger {
  /** Receives one line per answered attempt (method, path, status, duration). */
  debug?: (record: LogRecord) => void;
  /** Receives informational lines. */
  info?: (record: LogRecord) => void;
  /** Receives one line per retry (why, and after what delay) and per response drift in tolerant mode. */
  warn?: (record: LogRecord) => void;
  /** Receives lines about failures the SDK could not recover from. */
  error?: (record: LogRecord) => void;
}

/** The least severe level written: `"debug"` writes everything, `"off"` nothing. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "off";

/** Options of {@link MerchantPaymentsClient}. Everything but the credentials and `baseUrl` has a default. */
export interface ClientOptions {
  /** Private API key (`<prefix>_test_…` for test mode, `<prefix>_…` for live). Default: `MERCHANT_PAYMENTS_API_KEY`. */
  apiKey?: string | undefined;
  /** Public App ID for wallet authentication; requires `clientId`. Exclusive with `apiKey`. */
  appId?: string | undefined;
  /** Client ID sent with `appId`. */
  clientId?: string | undefined;
  /**
   * The service's root address, e.g. the production or staging base URL you were given, without `/v1` (the SDK adds
   * it). Default: `MERCHANT_PAYMENTS_BASE_URL`. Must be https; plain http only for loopback hosts, or with
   * {@link ClientOptions.allowInsecureHttp}.
   */
  baseUrl?: string | undefined;
  /**
   * Allow plain `http://` to a host other than this machine, such as a mock service in Docker Compose or a CI
   * service container. Only with a test-mode key: a live key or App-Id credentials never travel in clear text.
   * Default `false`.
   */
  allowInsecureHttp?: boolean | undefined;
  /** Default `Merchant-Id` for payment operations; each call may override it. Default: `MERCHANT_PAYMENTS_MERCHANT_ID`. */
  merchantId?: string | undefined;
  /** Pin the API version (`YYYY-MM-DD`, optionally with a suffix such as `.preview`). Requires `versionHeader`. */
  apiVersion?: string | undefined;
  /** Name of the version header, `<Service>-Version`: the service's short prefix is yours to give, the SDK does not guess it. */
  versionHeader?: string | undefined;
  /**
   * Headers sent with every request, for example for tracing. They cannot set the credentials, `Merchant-Id`,
   * `Idempotency-Key`, the version header or the message's framing; a call's own `headers` override them.
   */
  defaultHeaders?: Record<string, string> | undefined;
  /** Time allowed for each attempt, in milliseconds. Default 30 000. */
  timeoutMs?: number | undefined;
  /** How many times a failed request may be retried (when retrying is safe). Default 2. */
  maxRetries?: number | undefined;
  /** Fine-tune the retry delays. */
  retry?: Partial<Omit<RetryPolicy, "maxRetries">> | undefined;
  /** A `fetch` to send with (any implementation; its responses need not be the global class). Default: the SDK's pooled `node:http` wire. */
  fetch?: typeof fetch | undefined;
  /**
   * How responses are read. `"strict"`: every deviation from the interface document is a `ResponseValidationError`
   * (tests, CI). `"tolerant"`: what arrived is returned and each deviation is reported as a {@link DriftEvent};
   * money rules never relax. Default: `MERCHANT_PAYMENTS_RESPONSE_VALIDATION`, else `"tolerant"`.
   */
  responseValidation?: ResponseValidation | undefined;
  /** The largest response body read, in bytes after decompression; past it the call fails. Default 1 MiB. */
  maxResponseBytes?: number | undefined;
  /** Connections kept open per origin by the default wire (ignored with your own `fetch`). Default 32. */
  maxSockets?: number | undefined;
  /** Where to write log lines: `console`, pino, winston… Default: `console` when a level is set, else nothing. */
  logger?: Logger | undefined;
  /**
   * The least severe line written. Default: `MERCHANT_PAYMENTS_LOG`, else `"warn"` when a `logger` is given, else
   * `"off"`. A level set with no `logger` writes to `console`.
   */
  logLevel?: LogLevel | undefined;
  /** Observe every attempt, response and retry. */
  hooks?: Hooks | undefined;
  /**
   * OpenTelemetry spans and the `http.client.request.duration` metric (needs `@opentelemetry/api` installed): `true`
   * for the global providers, or `{ tracerProvider, meterProvider }`. Default `false`: nothing is loaded or recorded.
   */
  telemetry?: TelemetryOption | undefined;
  /**
   * The service's calls are server-side only: an API key in a browser page is a leaked key. The client refuses to
   * start in a browser unless this is `true` (for example for a wallet-auth page using `appId`).
   */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/** Options after defaults, environment fallbacks and checks. */
export interface ResolvedConfig {
  credentials: Credentials;
  mode: Mode;
  baseUrl: string;
  /** True when plain http to a non-loopback host was allowed (test-mode key and `allowInsecureHttp`). */
  allowInsecureHttp: boolean;
  merchantId: string | undefined;
  apiVersion: string | undefined;
  versionHeader: string | undefined;
  /** Checked client-level headers, names in lower case; never a reserved or credential header. */
  defaultHeaders: Readonly<Record<string, string>>;
  timeoutMs: number;
  retry: RetryPolicy;
  fetch: typeof fetch | undefined;
  /** Where lines go; `undefined` when nothing is logged (`logLevel` `"off"`). */
  logger: Logger | undefined;
  /** The least severe level `log()` writes. */
  logLevel: LogLevel;
  hooks: Hooks | undefined;
  telemetry: TelemetryOption | undefined;
  responseValidation: ResponseValidation;
  maxResponseBytes: number;
  maxSockets: number;
}

/** The options that fall back to an environment variable when not given, and that variable. */
const ENV = {
  apiKey: "MERCHANT_PAYMENTS_API_KEY",
  baseUrl: "MERCHANT_PAYMENTS_BASE_URL",
  merchantId: "MERCHANT_PAYMENTS_MERCHANT_ID",
  responseValidation: "MERCHANT_PAYMENTS_RESPONSE_VALIDATION",
  logLevel: "MERCHANT_PAYMENTS_LOG",
} as const satisfies Partial<Record<keyof ClientOptions, string>>;

/** The largest delay a timer can hold (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;
/** Printable ASCII without spaces: what a key or id may hold and still be a safe header value. */
const HEADER_TOKEN = /^[\x21-\x7e]+$/;

const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "off"];
const RESPONSE_VALIDATIONS: readonly ResponseValidation[] = ["strict", "tolerant"];
const CREDENTIAL_OPTIONS = ["apiKey", "appId", "clientId"] as const;

/**
 * The options that hold one value, each with the rule it is checked by. The rule words the message, so every option
 * of a kind (a duration, a count, a switch…) is refused alike; {@link setting} names the option, or the environment
 * variable the value came from.
 */
const SETTINGS = {
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
interface Group {
  /** Each part's rule. A part left out (or `undefined`, where its rule allows it) is not checked further. */
  parts: Record<string, ProblemOf>;
  /** True when no other name is allowed (a misspelt part is refused with the nearest name). */
  closed: boolean;
  /** An example of what the object is, for the message when it is not an object. */
  example?: string;
}

const delayProblem: ProblemOf = (value) => durationProblem(value, 0);

/** The options that are objects of named parts. */
const GROUPS = {
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

/** The options checked by hand below: the credentials, the address and the headers have rules of their own. */
const OWN_RULE_OPTIONS = [
  "apiKey",
  "appId",
  "clientId",
  "baseUrl",
  "versionHeader",
  "defaultHeaders",
] as const;

/** Every constructor option, so that a misspelt one is refused with the nearest name. */
const OPTION_NAMES: readonly string[] = [
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

/**
 * Resolves and checks the client's options. Throws {@link ConfigurationError}. Messages describe a wrong value by its
 * type, never by its text: a key pasted into the wrong option must not reach a message or a log.
 */
export function resolveConfig(options: ClientOptions): ResolvedConfig {
  checkObject("MerchantPaymentsClient options", options);
  checkNames(options, OPTION_NAMES, "");
  refuseBrowser(setting(options, "dangerouslyAllowBrowser") ?? false);
  refuseUnsupportedNode();
  const credentials = resolveCredentials(options);
  const merchantId = setting(options, "merchantId");
  const { apiVersion, versionHeader } = resolveVersion(options, credentials);
  const allowInsecureHttp = setting(options, "allowInsecureHttp") ?? false;
  const logger = group(options, "logger");
  // A level asked for without a logger writes to `console`.
  const logLevel = setting(options, "logLevel") ?? (logger ? "warn" : "off");
  const hooks = group(options, "hooks");
  return {
    credentials,
    mode: modeOf(credentials),
    baseUrl: resolveBaseUrl(options.baseUrl ?? readEnv(ENV.baseUrl), credentials, allowInsecureHttp),
    allowInsecureHttp,
    merchantId,
    apiVersion,
    versionHeader,
    defaultHeaders: resolveDefaultHeaders(options.defaultHeaders, versionHeader, credentials),
    timeoutMs: setting(options, "timeoutMs") ?? 30_000,
    retry: {
      ...DEFAULT_RETRY_POLICY,
      ...group(options, "retry"),
      maxRetries: setting(options, "maxRetries") ?? DEFAULT_RETRY_POLICY.maxRetries,
    },
    fetch: setting(options, "fetch"),
    logger: logLevel === "off" ? undefined : (logger ?? console),
    logLevel,
    // A frozen copy, so that changing the object given later changes nothing.
    hooks: hooks && Object.freeze({ ...hooks }),
    telemetry: setting(options, "telemetry"),
    responseValidation: setting(options, "responseValidation") ?? "tolerant",
    maxResponseBytes: setting(options, "maxResponseBytes") ?? 1_048_576,
    maxSockets: setting(options, "maxSockets") ?? 32,
  };
}

/**
 * The options a client was built with, as settled at construction (environment fallbacks read, nested objects
 * copied): what {@link mergeOptions} starts from, so a derived client shares nothing mutable with its parent.
 * Holds the credentials: keep it private.
 */
export function settledOptions(config: ResolvedConfig, given: ClientOptions): ClientOptions {
  // Every other field of the resolved configuration is the option of the same name, as settled.
  const { credentials, mode, retry, logger, logLevel, hooks, defaultHeaders, ...settled } = config;
  const { maxRetries, ...delays } = retry;
  return {
    ...(credentials.scheme === "apiKey"
      ? { apiKey: credentials.apiKey }
      : { appId: credentials.appId, clientId: credentials.clientId }),
    ...settled,
    defaultHeaders: { ...defaultHeaders },
    maxRetries,
    retry: delays,
    logger: given.logger,
    // Only a level that was asked for: with none, a logger given later still gets the default.
    logLevel: given.logLevel ?? (readEnv(ENV.logLevel) as LogLevel | undefined),
    hooks: hooks && { ...hooks },
    dangerouslyAllowBrowser: given.dangerouslyAllowBrowser,
  };
}

/**
 * A client's settled options with `overrides` on top, for `withOptions()`. A nested object (`retry`, `hooks`,
 * `defaultHeaders`) is replaced whole. New credentials replace the old ones whole, whichever scheme they use.
 */
export function mergeOptions(base: ClientOptions, overrides: ClientOptions): ClientOptions {
  checkObject("withOptions overrides", overrides);
  const merged: ClientOptions = { ...base };
  if (CREDENTIAL_OPTIONS.some((name) => overrides[name] !== undefined)) {
    for (const name of CREDENTIAL_OPTIONS) delete merged[name];
  }
  return { ...merged, ...overrides };
}

/**
 * One single-value option, checked: the given value, else its environment variable's, else `undefined` (the caller
 * puts the default). The message names where the wrong value came from.
 */
function setting<K extends keyof typeof SETTINGS>(options: ClientOptions, name: K): ClientOptions[K] {
  const env: string | undefined = (ENV as Partial<Record<keyof ClientOptions, string>>)[name];
  const given = options[name];
  const value: unknown = given === undefined && env !== undefined ? readEnv(env) : given;
  if (value !== undefined) check(given === undefined ? `${env}` : name, value, SETTINGS[name]);
  return value as ClientOptions[K];
}

/** One option that is an object of named parts, checked part by part; `undefined` when not given. */
function group<K extends keyof typeof GROUPS>(options: ClientOptions, name: K): ClientOptions[K] {
  const value: unknown = options[name];
  if (value === undefined) return undefined;
  const { parts, closed, example }: Group = GROUPS[name];
  if (!isRecord(value)) {
    const such = example === undefined ? "" : ` such as ${example}`;
    throw new ConfigurationError(`${name} must be an object${such}: got ${got(value)}.`);
  }
  if (closed) checkNames(value, Object.keys(parts), `${name}.`);
  // `in`, not own keys: a logger's methods may live on its prototype.
  for (const [part, problemOf] of Object.entries(parts)) {
    if (part in value) check(`${name}.${part}`, value[part], problemOf);
  }
  return value as ClientOptions[K];
}

function checkObject(what: string, value: unknown): asserts value is object {
  if (!isRecord(value)) {
    throw new ConfigurationError(`${what} must be an object such as { apiKey, baseUrl }: got ${got(value)}.`);
  }
}

/** Refuses names that are not options, with the nearest valid one as advice (`baseURL` → `baseUrl`). */
function checkNames(value: object, known: readonly string[], prefix: string): void {
  const unknown = Object.keys(value).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const described = unknown.map((name) => {
    const nearest = nearestName(name, known);
    return nearest === undefined ? prefix + name : `${prefix}${name} (did you mean ${prefix}${nearest}?)`;
  });
  throw new ConfigurationError(`Unknown option${unknown.length > 1 ? "s" : ""}: ${described.join(", ")}.`);
}

/** Throws a {@link ConfigurationError} naming `name` when `problemOf` finds a problem with `value`. */
function check(name: string, value: unknown, problemOf: ProblemOf): void {
  const problem = problemOf(value);
  if (problem !== undefined) throw new ConfigurationError(`${name} ${problem}.`);
}

/**
 * How a message describes a wrong value: its type, never its text (a key pasted into the wrong option would then be
 * quoted), with a number's value, and the likely fix for a number written as a string.
 */
function got(value: unknown): string {
  if (typeof value === "number") return `${describeType(value)} (${value})`;
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) {
    return "a string: write the number without quotes";
  }
  return describeType(value);
}

/** True when `text` holds the client's API key: such a value is refused and never quoted. */
function holdsKey(text: string, credentials: Credentials): boolean {
  return credentials.scheme === "apiKey" && text.toLowerCase().includes(credentials.apiKey.toLowerCase());
}

function booleanProblem(value: unknown): string | undefined {
  return typeof value === "boolean" ? undefined : `must be true or false: got ${got(value)}`;
}

/** A function, or `undefined` where a part may be left out (a hook, a logger method). */
function functionProblem(value: unknown): string | undefined {
  return value === undefined || typeof value === "function"
    ? undefined
    : `must be a function: got ${got(value)}`;
}

/** The rule of an option that takes one of a few strings. */
function oneOfProblem(values: readonly string[]): ProblemOf {
  const listed = values.map((value) => `"${value}"`).join(", ");
  return (value) =>
    values.includes(value as string) ? undefined : `must be one of ${listed}: got ${got(value)}`;
}

/** What is wrong with a positive whole count (bytes, sockets), or `undefined`. */
function sizeProblem(value: unknown): string | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1
    ? undefined
    : `must be a whole number of at least 1: got ${got(value)}`;
}

/** The mode a key acts in: `<prefix>_test_…` is test mode, any other `<prefix>_…` key is live. */
export function modeOf(credentials: Credentials): Mode {
  if (credentials.scheme !== "apiKey") return "unknown";
  return /^[^_]+_test_/.test(credentials.apiKey) ? "test" : "live";
}

function resolveCredentials(options: ClientOptions): Credentials {
  const { apiKey, appId, clientId } = options;
  if (apiKey !== undefined && (appId !== undefined || clientId !== undefined)) {
    throw new ConfigurationError("Give apiKey, or appId with clientId, not both.");
  }
  if (appId !== undefined || clientId !== undefined) {
    if (appId === undefined || clientId === undefined) {
      throw new ConfigurationError("appId and clientId go together: give both.");
    }
    check("appId", appId, headerValueProblem);
    check("clientId", clientId, headerValueProblem);
    return { scheme: "appId", appId, clientId };
  }
  const key = apiKey ?? readEnv(ENV.apiKey);
  if (key === undefined || key === "") {
    throw new ConfigurationError(
      `No credentials: pass apiKey (or appId with clientId), or set ${ENV.apiKey}.`,
    );
  }
  // The key itself must never reach a message: the message only says what a key looks like.
  if (typeof key !== "string" || !HEADER_TOKEN.test(key) || !/^[^_]+_./.test(key)) {
    throw new ConfigurationError(
      "apiKey does not look like an API key: `<prefix>_test_…` or `<prefix>_…`, printable, no spaces.",
    );
  }
  return { scheme: "apiKey", apiKey: key };
}

function resolveBaseUrl(raw: unknown, credentials: Credentials, allowInsecureHttp: boolean): string {
  if (raw === undefined || raw === "") {
    throw new ConfigurationError(
      `No baseUrl: pass the service's address, or set ${ENV.baseUrl} (there is no default).`,
    );
  }
  const url = parseBaseUrl(raw);
  if (url.username || url.password || url.search || url.hash) {
    throw new ConfigurationError(
      "baseUrl must be an address only: no credentials, query string or fragment.",
    );
  }
  checkScheme(url, credentials, allowInsecureHttp);
  if (/\/v1\/*$/i.test(url.pathname)) {
    throw new ConfigurationError(
      "baseUrl must be the service's root address, without /v1 at the end: the SDK adds /v1/… to every path itself.",
    );
  }
  return url.href.replace(/\/+$/, "");
}

function parseBaseUrl(raw: unknown): URL {
  if (typeof raw !== "string") throw new ConfigurationError(`baseUrl must be a string: got ${got(raw)}.`);
  try {
    return new URL(raw);
  } catch {
    throw new ConfigurationError(
      "baseUrl is not an absolute URL: give the service's address, like https://api.example.com.",
    );
  }
}

/** https always; plain http to this machine; to another host only for a test-mode key that asked for it. */
function checkScheme(url: URL, credentials: Credentials, allowInsecureHttp: boolean): void {
  if (url.protocol === "https:") return;
  if (url.protocol !== "http:") {
    throw new ConfigurationError("baseUrl must use https:// (the scheme given is neither https nor http).");
  }
  if (isLoopback(url.hostname)) return;
  if (!allowInsecureHttp) {
    throw new ConfigurationError(
      "baseUrl must use https: plain http is only for a loopback host (localhost, 127.0.0.1, [::1]). For a mock " +
        "service in Docker Compose or CI, set allowInsecureHttp: true and use a test-mode key.",
    );
  }
  if (modeOf(credentials) !== "test") {
    throw new ConfigurationError(
      "allowInsecureHttp needs a test-mode key (`<prefix>_test_…`): a live key or App-Id credentials never travel " +
        "over plain http. Use the service's https address.",
    );
  }
}

function resolveVersion(
  options: ClientOptions,
  credentials: Credentials,
): { apiVersion?: string; versionHeader?: string } {
  const { versionHeader } = options;
  if (versionHeader !== undefined) {
    check("versionHeader", versionHeader, (name) => versionHeaderProblem(name, credentials));
  }
  const apiVersion = setting(options, "apiVersion");
  if (apiVersion !== undefined && versionHeader === undefined) {
    throw new ConfigurationError(
      "apiVersion requires versionHeader: `<Service>-Version`, with your service's prefix.",
    );
  }
  return { apiVersion, versionHeader };
}

/** The version header is `<Service>-Version` (the interface document's own form), never a header the SDK sets. */
function versionHeaderProblem(name: unknown, credentials: Credentials): string | undefined {
  const advice = "give `<Service>-Version`, with your service's short prefix";
  if (typeof name !== "string") return `must be a header name: got ${got(name)}; ${advice}`;
  if (holdsKey(name, credentials)) return `holds the API key, not a header name: ${advice}`;
  if (headerNameProblem(name) !== undefined) return `is not a valid header name: ${advice}`;
  const lower = name.toLowerCase();
  if (RESERVED_HEADERS.has(lower)) return `may not name ${lower}, a header the SDK sets itself: ${advice}`;
  if (!/^[^-]+(-[^-]+)*-version$/.test(lower)) return `must end in -Version: ${advice}`;
  return undefined;
}

/** The client's `defaultHeaders`, checked and copied with lower-case names. */
function resolveDefaultHeaders(
  raw: unknown,
  versionHeader: string | undefined,
  credentials: Credentials,
): Readonly<Record<string, string>> {
  // No prototype: a header named `__proto__` or `constructor` is kept as a header, not mistaken for the object's own.
  const headers: Record<string, string> = Object.create(null);
  if (raw === undefined) return Object.freeze(headers);
  if (!isRecord(raw)) {
    throw new ConfigurationError(
      `defaultHeaders must be an object of header names to values: got ${got(raw)}.`,
    );
  }
  for (const [name, value] of Object.entries(raw)) {
    const problem = defaultHeaderProblem(name, value, versionHeader, credentials);
    if (problem !== undefined) throw new ConfigurationError(`${problem}.`);
    const lower = name.toLowerCase();
    if (Object.hasOwn(headers, lower)) {
      throw new ConfigurationError(`defaultHeaders names ${name} twice (header names ignore case).`);
    }
    headers[lower] = value as string;
  }
  return Object.freeze(headers);
}

/** What is wrong with one default header, as a whole sentence, or `undefined`. Quotes a name only once it is safe. */
function defaultHeaderProblem(
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

/** What is wrong with an API version label, or `undefined` when it is fine. Shared with per-call options. */
export function apiVersionProblem(value: unknown): string | undefined {
  return typeof value === "string" && API_VERSION_RE.test(value)
    ? undefined
    : `must be YYYY-MM-DD with an optional suffix, like 2026-02-19.preview: got ${got(value)}`;
}

/** What is wrong with a retry count, or `undefined`. Shared with per-call options. */
export function countProblem(value: unknown): string | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 10
    ? undefined
    : `must be an integer from 0 to 10: got ${got(value)}`;
}

/** What is wrong with a duration in milliseconds, or `undefined`. Shared with per-call options. */
export function durationProblem(value: unknown, min: number): string | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= min && value <= MAX_TIMER_MS
    ? undefined
    : `must be a number of milliseconds from ${min} to ${MAX_TIMER_MS}: got ${got(value)}`;
}

/** What is wrong with a value sent as a header (an id, a key), or `undefined`. Shared with per-call options. */
export function headerValueProblem(value: unknown): string | undefined {
  return typeof value === "string" && HEADER_TOKEN.test(value) && value.length <= 255
    ? undefined
    : "must be 1 to 255 printable characters without spaces";
}

function readEnv(name: string): string | undefined {
  // `process` does not exist everywhere (edge runtimes, browsers), and Deno without `--allow-env` throws on a read:
  // the env fallback is then simply absent, and an option given in code still works.
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    const value = env?.[name];
    return value === "" || typeof value !== "string" ? undefined : value;
  } catch {
    return undefined;
  }
}

/**
 * Node before 22.12 cannot load ky 2 and uuid 14 (ES modules only, `require()` of one): say so here, rather than
 * let the first request fail deep inside a dependency. Bun and Deno report a Node version of their own: not checked.
 */
function refuseUnsupportedNode(): void {
  const g = globalThis as {
    process?: { release?: { name?: string }; versions?: { node?: string } };
    Bun?: unknown;
  };
  const version = g.process?.versions?.node;
  if (g.process?.release?.name !== "node" || g.Bun !== undefined || "Deno" in globalThis || !version) return;
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 12)) {
    throw new ConfigurationError(
      `merchant-payments needs Node 22.12 or later; this is Node ${version} (Node 20 reached its end of life on 2026-04-30).`,
    );
  }
}

function refuseBrowser(allowed: boolean): void {
  const g = globalThis as { window?: unknown; document?: unknown };
  if (!allowed && typeof g.window !== "undefined" && typeof g.document !== "undefined") {
    throw new ConfigurationError(
      "MerchantPaymentsClient is for servers: a browser page would expose the API key (see dangerouslyAllowBrowser).",
    );
  }
}
