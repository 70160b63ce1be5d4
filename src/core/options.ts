/**
 * The client's public option types: the options themselves, the credentials they make, and what hooks and loggers
 * receive. Types only: the rules are in `validate/options.ts`, resolving them in `config.ts`.
 *
 * @module
 */
import type { RetryPolicy } from "./retry.js";
import type { TelemetryOption } from "./telemetry/options.js";

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

/** An attempt that got an HTTP response. */
export interface ResponseEvent extends RequestEvent {
  /** The HTTP status code of the response. */
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

/**
 * Observe the SDK's traffic (for metrics or tracing). Hooks run synchronously and are never awaited; one that throws
 * (or returns a promise that rejects) never changes the call: it is reported once through the logger and not called
 * again by the client.
 */
export interface Hooks {
  /** Called before each attempt is sent. */
  onRequest?: (event: RequestEvent) => void;
  /** Called when an attempt gets an HTTP response, successful or not. */
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
 * methods. Each is called with one {@link LogRecord}; a level left out is not written, and a logger that throws is
 * turned off for the client (said once on `console.warn`). With pino, `pino({ messageKey: "message" })` also shows the SDK's message as pino's own.
 */
export interface Logger {
  /** Receives one line per attempt that got a response (method, path, status, duration). */
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
  /** A `fetch` to send with (any implementation; its responses need not be the global class). Default: the SDK's pooled `node:http` wire adapter. */
  fetch?: typeof fetch | undefined;
  /**
   * How responses are read. `"strict"`: every deviation from the interface document is a `ResponseValidationError`
   * (tests, CI). `"tolerant"`: what arrived is returned and each deviation is reported as a {@link DriftEvent};
   * money rules never relax. Default: `MERCHANT_PAYMENTS_RESPONSE_VALIDATION`, else `"tolerant"`.
   */
  responseValidation?: ResponseValidation | undefined;
  /** The largest response body read, in bytes after decompression; past it the call fails. Default 1 MiB. */
  maxResponseBytes?: number | undefined;
  /** Connections kept open per origin by the default wire adapter (ignored with your own `fetch`). Default 32. */
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
