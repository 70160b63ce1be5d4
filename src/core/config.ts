import { ConfigurationError } from "../errors.js";
import { API_VERSION_RE, isLoopback } from "../validate/rules.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.js";

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

/** A logger the SDK writes to: `console` fits, so do pino and winston instances. */
export interface Logger {
  /** Receives one line per answered attempt (method, path, status, duration). */
  debug?: (message: string, data?: Record<string, unknown>) => void;
  /** Receives one line per retry (why, and after what delay). */
  warn?: (message: string, data?: Record<string, unknown>) => void;
}

/** Options of {@link MerchantPaymentsClient}. Everything but the credentials and `baseUrl` has a default. */
export interface ClientOptions {
  /** Private API key (`<prefix>_test_…` for test mode, `<prefix>_…` for live). Default: `MERCHANT_PAYMENTS_API_KEY`. */
  apiKey?: string | undefined;
  /** Public App ID for wallet authentication; requires `clientId`. Exclusive with `apiKey`. */
  appId?: string | undefined;
  /** Client ID sent with `appId`. */
  clientId?: string | undefined;
  /** The service's address, e.g. the production or staging base URL you were given. Default: `MERCHANT_PAYMENTS_BASE_URL`. Must be https (http only for loopback hosts). */
  baseUrl?: string | undefined;
  /** Default `Merchant-Id` for payment operations; each call may override it. Default: `MERCHANT_PAYMENTS_MERCHANT_ID`. */
  merchantId?: string | undefined;
  /** Pin the API version (`YYYY-MM-DD`, optionally with a suffix such as `.preview`). Requires `versionHeader`. */
  apiVersion?: string | undefined;
  /** Name of the version header, `<Service>-Version`: the service's short prefix is yours to give, the SDK does not guess it. */
  versionHeader?: string | undefined;
  /** Time allowed for each attempt, in milliseconds. Default 30 000. */
  timeoutMs?: number | undefined;
  /** How many times a failed request may be retried (when retrying is safe). Default 2. */
  maxRetries?: number | undefined;
  /** Fine-tune the retry delays. */
  retry?: Partial<Omit<RetryPolicy, "maxRetries">> | undefined;
  /** A `fetch` implementation to send with (for example undici's, with its own connection pool). Default: the global `fetch`. */
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
  /** Where to log attempts (debug) and retries (warn). Nothing is logged by default. */
  logger?: Logger | undefined;
  /** Observe every attempt, response and retry. */
  hooks?: Hooks | undefined;
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
  merchantId: string | undefined;
  apiVersion: string | undefined;
  versionHeader: string | undefined;
  timeoutMs: number;
  retry: RetryPolicy;
  fetch: typeof fetch | undefined;
  logger: Logger | undefined;
  hooks: Hooks | undefined;
  responseValidation: ResponseValidation;
  maxResponseBytes: number;
  maxSockets: number;
}

const ENV = {
  apiKey: "MERCHANT_PAYMENTS_API_KEY",
  baseUrl: "MERCHANT_PAYMENTS_BASE_URL",
  merchantId: "MERCHANT_PAYMENTS_MERCHANT_ID",
  responseValidation: "MERCHANT_PAYMENTS_RESPONSE_VALIDATION",
} as const;

/** The largest delay a timer can hold (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[\w!#$%&'*+.^`|~-]+$/;
/** Printable ASCII without spaces: what a key or id may hold and still be a safe header value. */
const HEADER_TOKEN = /^[\x21-\x7e]+$/;

/** Resolves and checks the client's options. Throws {@link ConfigurationError}; messages never quote a credential. */
export function resolveConfig(options: ClientOptions): ResolvedConfig {
  refuseBrowser(options.dangerouslyAllowBrowser === true);
  const credentials = resolveCredentials(options);
  const merchantId = options.merchantId ?? readEnv(ENV.merchantId);
  if (merchantId !== undefined) checkToken("merchantId", merchantId);
  const { apiVersion, versionHeader } = resolveVersion(options);
  return {
    credentials,
    mode: modeOf(credentials),
    baseUrl: resolveBaseUrl(options.baseUrl ?? readEnv(ENV.baseUrl)),
    merchantId,
    apiVersion,
    versionHeader,
    timeoutMs: checkDuration("timeoutMs", options.timeoutMs ?? 30_000, 1),
    retry: resolveRetry(options),
    fetch: checkFunction("fetch", options.fetch),
    logger: options.logger,
    hooks: options.hooks,
    responseValidation: resolveResponseValidation(
      options.responseValidation ?? readEnv(ENV.responseValidation) ?? "tolerant",
    ),
    maxResponseBytes: check("maxResponseBytes", options.maxResponseBytes ?? 1_048_576, sizeProblem),
    maxSockets: check("maxSockets", options.maxSockets ?? 32, sizeProblem),
  };
}

function resolveResponseValidation(value: unknown): ResponseValidation {
  if (value === "strict" || value === "tolerant") return value;
  throw new ConfigurationError(
    `responseValidation must be "strict" or "tolerant" (also from ${ENV.responseValidation}).`,
  );
}

/** What is wrong with a positive whole count (bytes, sockets), or `undefined`. */
function sizeProblem(value: unknown): string | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1
    ? undefined
    : "must be a whole number of at least 1";
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
    checkToken("appId", appId);
    checkToken("clientId", clientId);
    return { scheme: "appId", appId, clientId };
  }
  const key = apiKey ?? readEnv(ENV.apiKey);
  if (key === undefined || key === "") {
    throw new ConfigurationError(
      `No credentials: pass apiKey (or appId with clientId), or set ${ENV.apiKey}.`,
    );
  }
  // The key itself must never reach a message: the message only says what a key looks like.
  if (!HEADER_TOKEN.test(key) || !/^[^_]+_./.test(key)) {
    throw new ConfigurationError(
      "apiKey does not look like an API key: `<prefix>_test_…` or `<prefix>_…`, printable, no spaces.",
    );
  }
  return { scheme: "apiKey", apiKey: key };
}

function resolveBaseUrl(raw: string | undefined): string {
  if (raw === undefined || raw === "") {
    throw new ConfigurationError(
      `No baseUrl: pass the service's address, or set ${ENV.baseUrl} (there is no default).`,
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError(`baseUrl is not an absolute URL: ${JSON.stringify(raw)}.`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ConfigurationError(
      "baseUrl must be an address only: no credentials, query string or fragment.",
    );
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
    throw new ConfigurationError(
      `baseUrl must use https (http only for a loopback host such as 127.0.0.1): got ${url.protocol}//${url.host}.`,
    );
  }
  return url.href.replace(/\/+$/, "");
}

function resolveVersion(options: ClientOptions): { apiVersion?: string; versionHeader?: string } {
  const { apiVersion, versionHeader } = options;
  if (versionHeader !== undefined && !HEADER_NAME.test(versionHeader)) {
    throw new ConfigurationError(
      `versionHeader is not a valid header name: ${JSON.stringify(versionHeader)}.`,
    );
  }
  if (apiVersion !== undefined) {
    check("apiVersion", apiVersion, apiVersionProblem);
    if (versionHeader === undefined) {
      throw new ConfigurationError(
        "apiVersion requires versionHeader: `<Service>-Version`, with your service's prefix.",
      );
    }
  }
  return { apiVersion, versionHeader };
}

/** What is wrong with an API version label, or `undefined` when it is fine. Shared with per-call options. */
export function apiVersionProblem(value: unknown): string | undefined {
  return typeof value === "string" && API_VERSION_RE.test(value)
    ? undefined
    : `must be YYYY-MM-DD with an optional suffix, like 2026-02-19.preview: got ${JSON.stringify(value)}`;
}

/** What is wrong with a retry count, or `undefined`. Shared with per-call options. */
export function countProblem(value: unknown): string | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 10
    ? undefined
    : `must be an integer from 0 to 10: got ${String(value)}`;
}

/** What is wrong with a duration in milliseconds, or `undefined`. Shared with per-call options. */
export function durationProblem(value: unknown, min: number): string | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= min && value <= MAX_TIMER_MS
    ? undefined
    : `must be a number of milliseconds from ${min} to ${MAX_TIMER_MS}: got ${String(value)}`;
}

/** What is wrong with a value sent as a header (an id, a key), or `undefined`. Shared with per-call options. */
export function headerValueProblem(value: unknown): string | undefined {
  return typeof value === "string" && HEADER_TOKEN.test(value) && value.length <= 255
    ? undefined
    : "must be 1 to 255 printable characters without spaces";
}

function resolveRetry(options: ClientOptions): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  return {
    maxRetries: check("maxRetries", options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries, countProblem),
    baseDelayMs: checkDuration("retry.baseDelayMs", policy.baseDelayMs, 0),
    maxDelayMs: checkDuration("retry.maxDelayMs", policy.maxDelayMs, 0),
    maxRetryAfterMs: checkDuration("retry.maxRetryAfterMs", policy.maxRetryAfterMs, 0),
  };
}

function checkDuration(name: string, value: unknown, min: number): number {
  return check(name, value, (v) => durationProblem(v, min)) as number;
}

function check<T>(name: string, value: T, problemOf: (value: T) => string | undefined): T {
  const problem = problemOf(value);
  if (problem !== undefined) throw new ConfigurationError(`${name} ${problem}.`);
  return value;
}

function checkToken(name: string, value: unknown): void {
  check(name, value, headerValueProblem);
}

function checkFunction<T>(name: string, value: T | undefined): T | undefined {
  if (value !== undefined && typeof value !== "function") {
    throw new ConfigurationError(`${name} must be a function.`);
  }
  return value;
}

function readEnv(name: string): string | undefined {
  // `process` does not exist everywhere (edge runtimes, browsers); the env fallback is then simply absent.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name];
  return value === "" ? undefined : value;
}

function refuseBrowser(allowed: boolean): void {
  const g = globalThis as { window?: unknown; document?: unknown };
  if (!allowed && typeof g.window !== "undefined" && typeof g.document !== "undefined") {
    throw new ConfigurationError(
      "MerchantPaymentsClient is for servers: a browser page would expose the API key (see dangerouslyAllowBrowser).",
    );
  }
}
