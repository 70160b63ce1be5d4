/**
 * Resolving the client's options: each checked by its rule (`validate/options.ts`), environment fallbacks read,
 * defaults put in; and merging a client's options with `withOptions()` overrides, to be resolved again.
 *
 * @module
 */
import { ConfigurationError } from "../errors.js";
import { isRecord, nearestName, type ProblemOf } from "../validate/issues.js";
import {
  defaultHeaderProblem,
  GROUPS,
  type Group,
  got,
  HEADER_TOKEN,
  headerValueProblem,
  OPTION_NAMES,
  SETTINGS,
  versionHeaderProblem,
} from "../validate/options.js";
import { isLoopback } from "../validate/rules.js";
import type {
  ClientOptions,
  Credentials,
  Hooks,
  Logger,
  LogLevel,
  Mode,
  ResponseValidation,
} from "./options.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.js";
import { readEnv, refuseBrowser, refuseUnsupportedNode, warnOnce } from "./runtime.js";
import { type TelemetryOptions, telemetryProviders } from "./telemetry/options.js";

/** Options after defaults, environment fallbacks and checks. */
export interface ResolvedConfig {
  /**
   * The options as given, with those read from the environment: what `withOptions()` merges its overrides into and
   * resolves again. Holds the credentials: keep it private.
   */
  options: ClientOptions;
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
  /** OpenTelemetry's providers (`{}` for the global ones), or `undefined` when the `telemetry` option is off. */
  telemetry: TelemetryOptions | undefined;
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

const CREDENTIAL_OPTIONS = ["apiKey", "appId", "clientId"] as const;

/**
 * Resolves and checks the client's options. Throws {@link ConfigurationError}. Messages describe a wrong value by its
 * type, never by its text: a key pasted into the wrong option must not reach a message or a log.
 */
export function resolveConfig(given: ClientOptions): ResolvedConfig {
  checkObject("MerchantPaymentsClient options", given);
  checkNames(given, OPTION_NAMES, "");
  const options = withEnvironment(given);
  const setting = settingOf(options, given);
  refuseBrowser(setting("dangerouslyAllowBrowser") ?? false);
  refuseUnsupportedNode();
  const credentials = resolveCredentials(options);
  const merchantId = setting("merchantId");
  const { apiVersion, versionHeader } = resolveVersion(options, setting("apiVersion"), credentials);
  const allowInsecureHttp = setting("allowInsecureHttp") ?? false;
  const logger = group(options, "logger");
  // A level asked for without a logger writes to `console`.
  const logLevel = setting("logLevel") ?? (logger ? "warn" : "off");
  const hooks = group(options, "hooks");
  return {
    options: keptOptions(options),
    credentials,
    mode: modeOf(credentials),
    baseUrl: resolveBaseUrl(options.baseUrl, credentials, allowInsecureHttp),
    allowInsecureHttp,
    merchantId,
    apiVersion,
    versionHeader,
    defaultHeaders: resolveDefaultHeaders(options.defaultHeaders, versionHeader, credentials),
    timeoutMs: setting("timeoutMs") ?? 30_000,
    retry: {
      ...DEFAULT_RETRY_POLICY,
      ...group(options, "retry"),
      maxRetries: setting("maxRetries") ?? DEFAULT_RETRY_POLICY.maxRetries,
    },
    fetch: setting("fetch"),
    logger: logLevel === "off" ? undefined : (logger ?? console),
    logLevel,
    // A frozen copy, so that changing the object given later changes nothing.
    hooks: hooks && Object.freeze({ ...hooks }),
    telemetry: telemetryProviders(setting("telemetry")),
    responseValidation: setting("responseValidation") ?? "tolerant",
    maxResponseBytes: setting("maxResponseBytes") ?? 1_048_576,
    maxSockets: setting("maxSockets") ?? 32,
  };
}

/**
 * The options with each one left out filled from its environment variable, read once here: a client derived with
 * `withOptions()` keeps what its parent read, even once the environment changes. The API key is read only when no
 * App-Id credentials were given.
 */
function withEnvironment(given: ClientOptions): ClientOptions {
  const options: ClientOptions = { ...given };
  const appIdAuth = given.appId !== undefined || given.clientId !== undefined;
  for (const [name, variable] of Object.entries(ENV) as [keyof typeof ENV, string][]) {
    if (given[name] !== undefined || (name === "apiKey" && appIdAuth)) continue;
    const value = readEnv(variable);
    if (value !== undefined && understood(name, variable, value)) options[name] = value as never;
  }
  return options;
}

/** The variables whose value picks one of a few settings: one not understood is a warning and the default. */
const CHOICES = { logLevel: SETTINGS.logLevel, responseValidation: SETTINGS.responseValidation } as const;

/**
 * False, after a warning (once per variable), when a choice read from the environment is not one the SDK knows:
 * a deployment's stray value must not stop every client from starting. The same value given in code still throws.
 */
function understood(name: keyof typeof ENV, variable: string, value: string): boolean {
  const problem = name in CHOICES ? CHOICES[name as keyof typeof CHOICES](value) : undefined;
  if (problem === undefined) return true;
  warnOnce(variable, `${variable} ${problem}: ignored, the default is used.`);
  return false;
}

/**
 * The options a client was given with `overrides` on top, for `withOptions()`. A nested object (`retry`, `hooks`,
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
 * The options as the caller gave them, with the nested objects copied, so that changing an object given later
 * changes no client: what `withOptions()` merges its overrides into and resolves again. Holds the credentials: keep
 * it private.
 */
function keptOptions(options: ClientOptions): ClientOptions {
  const { retry, hooks, defaultHeaders } = options;
  return {
    ...options,
    ...(retry && { retry: { ...retry } }),
    ...(hooks && { hooks: { ...hooks } }),
    ...(defaultHeaders && { defaultHeaders: { ...defaultHeaders } }),
  };
}

/**
 * Reads single-value options, each checked by its rule: the value, or `undefined` (the caller puts the default).
 * The message names where a wrong value came from: the option, or the environment variable it was read from.
 */
function settingOf(options: ClientOptions, given: ClientOptions) {
  return <K extends keyof typeof SETTINGS>(name: K): ClientOptions[K] => {
    const value: unknown = options[name];
    const variable = given[name] === undefined ? (ENV as Record<string, string>)[name] : undefined;
    if (value !== undefined) check(variable ?? name, value, SETTINGS[name]);
    return value as ClientOptions[K];
  };
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
  const key = apiKey;
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
  apiVersion: string | undefined,
  credentials: Credentials,
): { apiVersion?: string; versionHeader?: string } {
  const { versionHeader } = options;
  if (versionHeader !== undefined) {
    check("versionHeader", versionHeader, (name) => versionHeaderProblem(name, credentials));
  }
  if (apiVersion !== undefined && versionHeader === undefined) {
    throw new ConfigurationError(
      "apiVersion requires versionHeader: `<Service>-Version`, with your service's prefix.",
    );
  }
  return { apiVersion, versionHeader };
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
