import type * as z from "zod/mini";
import {
  type APIError,
  ConnectionError,
  type MerchantPaymentsError,
  type RequestContext,
  type ResponseIssue,
  ResponseValidationError,
  TimeoutError,
} from "../errors.js";
import { type Drift, readResponse } from "../schemas/parse.js";
import { checkOptions, invalidInput, type ProblemOf } from "../validate/issues.js";
import { isLoopback } from "../validate/rules.js";
import { SDK_VERSION } from "../version.js";
import { apiErrorFrom, requestIdOf } from "./api-error.js";
import {
  apiVersionProblem,
  countProblem,
  type DriftEvent,
  durationProblem,
  headerValueProblem,
  type RequestEvent,
  type ResolvedConfig,
  type ResponseValidation,
} from "./config.js";
import { createHttp, type Http, WireFailure } from "./http.js";
import { log } from "./log.js";
import { abortErrorOf, isRetryableStatus, parseRetryAfter, retryDelayMs, sleep } from "./retry.js";

/** Any zod schema: operations name the one their response must match. */
type Schema = z.core.$ZodType;

/** Options every method takes last. Each overrides the client's setting for this one call. */
export interface RequestOptions {
  /** Abort the call: pending attempts and retry waits stop at once with a `UserAbortError`. */
  signal?: AbortSignal | undefined;
  /** Time allowed for each attempt, in milliseconds. */
  timeoutMs?: number | undefined;
  /** Retries allowed for this call. */
  maxRetries?: number | undefined;
  /** The `Idempotency-Key` to send. Reuse the same key when you repeat a call yourself (after a crash, say). */
  idempotencyKey?: string | undefined;
  /** `Merchant-Id` for payment operations, instead of the client's default. */
  merchantId?: string | undefined;
  /** API version to pin for this call (needs the client's `versionHeader`). */
  apiVersion?: string | undefined;
  /** Extra headers. They cannot replace the credentials, `Merchant-Id`, `Idempotency-Key` or the version header. */
  headers?: Record<string, string> | undefined;
}

/** The HTTP methods the interface uses. */
export type HttpMethod = "GET" | "POST" | "PUT";

/** One operation of the interface, as a resource method describes it. The transport does the rest. */
export interface Operation<S extends Schema> {
  method: HttpMethod;
  /** Path below the base URL, starting with `/v1/`; ids already encoded (see `pathSegment`). */
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  /** JSON body; `undefined` sends none. */
  body?: unknown;
  /** Schema the 2xx body must match; its output is what the call resolves to. */
  response: S;
  /** Payment operations carry `Merchant-Id`, from the call or the client; without one nothing is sent. */
  merchantScoped?: boolean;
  /**
   * `"always"`: the spec makes the service replay on the same key, so a fresh UUID is sent unless the caller gives
   * one, and the call is retried with it. Otherwise a key is sent only when the caller gives one.
   */
  idempotencyKey?: "always";
}

/** Headers the SDK alone sets: a caller's `headers` option cannot add a second credential or replace these. */
const RESERVED_HEADERS = new Set(["api-key", "app-id", "client-id", "merchant-id", "idempotency-key"]);
const USER_AGENT = `merchant-payments/${SDK_VERSION}`;

/** What stays the same across the attempts of one call, the idempotency key above all. */
interface PreparedCall {
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  /** A POST may be repeated only under an idempotency key: the service then replays instead of creating twice. */
  safeToRepeat: boolean;
  /** The call as hooks see it (attempt 0); errors take its method and path. */
  event: RequestEvent;
}

/** An attempt that did not produce a usable answer, and whether another attempt may fix it. */
interface FailedAttempt {
  error: MerchantPaymentsError;
  retryable: boolean;
  reason: string;
  retryAfterMs?: number | undefined;
}

/**
 * The one place that talks HTTP: assembles headers, sends through one ky instance, retries when that is safe,
 * maps failures to typed errors, and parses bodies with zod. Resources only describe operations.
 */
export class Transport {
  readonly #config: ResolvedConfig;
  readonly #http: Http;
  /** The headers every call starts from (credentials, User-Agent, the pinned version), built once per client. */
  readonly #baseHeaders: Readonly<Record<string, string>>;
  /** Whether anyone listens (hooks or a logger): events are only built then, off the hot path otherwise. */
  readonly #observed: boolean;
  /** True when the base URL is a loopback host: the client talks to a local mock, never to the real service. */
  readonly talksToLoopback: boolean;

  constructor(config: ResolvedConfig) {
    this.#config = config;
    this.talksToLoopback = isLoopback(new URL(config.baseUrl).hostname);
    this.#baseHeaders = baseHeadersOf(config);
    this.#observed = config.hooks !== undefined || config.logger !== undefined;
    this.#http = createHttp({
      fetch: config.fetch,
      maxResponseBytes: config.maxResponseBytes,
      maxSockets: config.maxSockets,
    });
  }

  /** Sends an operation and resolves to its parsed response, or throws a typed error. */
  async request<S extends Schema>(
    operation: Operation<S>,
    options: RequestOptions = {},
  ): Promise<z.output<S>> {
    const call = this.#prepare(operation, options);
    const { signal } = options;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw abortErrorOf(signal);
      const outcome = await this.#attempt(operation, call, attempt, signal);
      if (!("error" in outcome)) return outcome.value;
      const retryAllowed = outcome.retryable && (call.safeToRepeat || outcome.reason === "rate_limited");
      if (!retryAllowed || attempt >= call.maxRetries) throw outcome.error;
      const delayMs = retryDelayMs(this.#config.retry, attempt + 1, outcome.retryAfterMs);
      if (this.#observed) this.#emitRetry({ ...call.event, attempt }, delayMs, outcome.reason);
      await sleep(delayMs, signal);
    }
  }

  #prepare(operation: Operation<Schema>, options: RequestOptions): PreparedCall {
    // Most calls pass no options, and skip the checks.
    if (Object.keys(options).length > 0) checkOptions(options, REQUEST_OPTION_CHECKS);
    // A v4 UUID from the platform's CSPRNG (what the `uuid` package's v4() itself returns when it is available).
    const idempotencyKey =
      options.idempotencyKey ?? (operation.idempotencyKey === "always" ? crypto.randomUUID() : undefined);
    const headers = this.#headers(operation, options, idempotencyKey);
    return {
      url: this.#url(operation),
      headers,
      body: operation.body === undefined ? undefined : JSON.stringify(operation.body),
      timeoutMs: options.timeoutMs ?? this.#config.timeoutMs,
      maxRetries: options.maxRetries ?? this.#config.retry.maxRetries,
      // GET and PUT are idempotent in HTTP: repeating them cannot create a second resource.
      safeToRepeat: operation.method !== "POST" || idempotencyKey !== undefined,
      event: { method: operation.method, path: operation.path, attempt: 0, idempotencyKey },
    };
  }

  async #attempt<S extends Schema>(
    operation: Operation<S>,
    call: PreparedCall,
    attempt: number,
    signal: AbortSignal | undefined,
  ): Promise<{ value: z.output<S> } | FailedAttempt> {
    const event = this.#observed ? { ...call.event, attempt } : call.event;
    if (this.#observed) emit(this.#config.hooks?.onRequest, event);
    const started = this.#observed ? performance.now() : 0;
    try {
      const response = await this.#http.send({
        method: operation.method,
        url: call.url,
        headers: call.headers,
        body: call.body,
        timeoutMs: call.timeoutMs,
        signal,
      });
      const { text } = response;
      const requestId = requestIdOf(response.headers);
      if (this.#observed) this.#emitResponse(event, response.status, performance.now() - started, requestId);
      if (response.status < 200 || response.status > 299) {
        const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
        return failedAnswer(apiErrorFrom(response, this.#redact(text), call.event), retryAfterMs);
      }
      const { data, drift } = parseBody(
        operation.response,
        text,
        response.status,
        call.event,
        requestId,
        this.#redact,
        this.#config.responseValidation,
      );
      for (const entry of drift) this.#emitDrift(call.event, entry);
      return { value: data };
    } catch (error) {
      if (!(error instanceof WireFailure)) throw error;
      if (error.kind === "aborted") throw abortErrorOf(signal);
      if (error.kind === "timeout") {
        return { error: new TimeoutError(call.event, call.timeoutMs), retryable: true, reason: "timeout" };
      }
      return {
        error: new ConnectionError(call.event, { cause: error.cause }),
        retryable: true,
        reason: "connection",
      };
    }
  }

  /** Removes the API key from text the service sent back: a proxy's debug page or an echo must not carry it into an error. */
  readonly #redact = (text: string): string => {
    const { credentials } = this.#config;
    return credentials.scheme === "apiKey" ? text.replaceAll(credentials.apiKey, "[redacted]") : text;
  };

  #url(operation: Operation<Schema>): string {
    const url = this.#config.baseUrl + operation.path;
    if (!operation.query) return url;
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(operation.query)) {
      if (value !== undefined) params.append(name, String(value));
    }
    const query = params.toString();
    return query ? `${url}?${query}` : url;
  }

  /** The headers of a call. Lower-case names, so that a caller's `headers` cannot double one up by case. */
  #headers(
    operation: Operation<Schema>,
    options: RequestOptions,
    idempotencyKey: string | undefined,
  ): Record<string, string> {
    const config = this.#config;
    const headers: Record<string, string> = { ...this.#baseHeaders };
    if (options.headers) {
      for (const [name, value] of Object.entries(options.headers)) {
        const lower = name.toLowerCase();
        if (!RESERVED_HEADERS.has(lower) && lower !== config.versionHeader?.toLowerCase())
          headers[lower] = value;
      }
    }
    if (operation.body !== undefined) headers["content-type"] = "application/json";
    const { apiVersion } = options;
    if (apiVersion !== undefined) {
      if (config.versionHeader === undefined) {
        throw invalidInput("options.apiVersion", "needs the client's versionHeader option");
      }
      headers[config.versionHeader.toLowerCase()] = apiVersion;
    }
    if (operation.merchantScoped) {
      const merchantId = options.merchantId ?? config.merchantId;
      if (merchantId === undefined) {
        throw invalidInput(
          "merchantId",
          "is required for payment operations: set it on the client or per call",
        );
      }
      headers["merchant-id"] = merchantId;
    }
    if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
    return headers;
  }

  #emitResponse(
    event: RequestEvent,
    status: number,
    durationMs: number,
    requestId: string | undefined,
  ): void {
    emit(this.#config.hooks?.onResponse, { ...event, status, durationMs, requestId });
    log(this.#config, "debug", `${event.method} ${event.path} -> ${status}`, {
      attempt: event.attempt,
      durationMs: Math.round(durationMs),
      requestId,
    });
  }

  #emitDrift(request: RequestContext, drift: Drift): void {
    const event: DriftEvent = { operation: `${request.method} ${request.path}`, ...drift };
    emit(this.#config.hooks?.onDrift, event);
    log(this.#config, "warn", `response drift in ${event.operation} at ${drift.path || "(body)"}`, {
      ...event,
    });
  }

  #emitRetry(event: RequestEvent, delayMs: number, reason: string): void {
    emit(this.#config.hooks?.onRetry, { ...event, delayMs, reason });
    log(
      this.#config,
      "warn",
      `retrying ${event.method} ${event.path} in ${Math.round(delayMs)} ms (${reason})`,
      { attempt: event.attempt + 1 },
    );
  }
}

function failedAnswer(error: APIError, retryAfterMs: number | undefined): FailedAttempt {
  // A rate-limit refusal means the service did not act on the request, so even a POST without a key may repeat it.
  const rateLimited = error.code === "rate_limited" || error.status === 429;
  return {
    error,
    retryable: rateLimited || isRetryableStatus(error.status),
    reason: rateLimited ? "rate_limited" : String(error.status),
    retryAfterMs,
  };
}

/** Parses a 2xx body: JSON, then the operation's schema in the client's reading mode. Empty is `undefined`. */
function parseBody<S extends Schema>(
  schema: S,
  text: string,
  status: number,
  request: RequestContext,
  requestId: string | undefined,
  redact: (text: string) => string,
  mode: ResponseValidation,
): { data: z.output<S>; drift: readonly Drift[] } {
  const invalid = (issues: readonly ResponseIssue[], rawBody: unknown) =>
    new ResponseValidationError({ request, status, rawBody, issues, requestId });
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    throw invalid([{ path: "", message: "body is not JSON" }], redact(text));
  }
  const result = readResponse(schema, json, mode);
  if (result.success) return result;
  // The raw body is kept for diagnosis; reparsing the redacted text keeps it JSON (a key holds no quote or backslash).
  throw invalid(result.issues, text === "" ? undefined : JSON.parse(redact(text)));
}

/** The headers shared by every call of a client. Lower-case names, so a caller's `headers` cannot double one up. */
function baseHeadersOf(config: ResolvedConfig): Record<string, string> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "user-agent": USER_AGENT,
    ...config.defaultHeaders,
  };
  const { credentials } = config;
  if (credentials.scheme === "apiKey") {
    headers["api-key"] = credentials.apiKey;
  } else {
    headers["app-id"] = credentials.appId;
    headers["client-id"] = credentials.clientId;
  }
  if (config.apiVersion !== undefined && config.versionHeader !== undefined) {
    headers[config.versionHeader.toLowerCase()] = config.apiVersion;
  }
  return headers;
}

/** The checks of per-call options, made before anything is sent. */
const REQUEST_OPTION_CHECKS: Record<keyof RequestOptions, ProblemOf> = {
  signal: (signal) => (signal instanceof AbortSignal ? undefined : "must be an AbortSignal"),
  timeoutMs: (ms) => durationProblem(ms, 1),
  maxRetries: countProblem,
  idempotencyKey: headerValueProblem,
  merchantId: headerValueProblem,
  apiVersion: apiVersionProblem,
  headers: (headers) => {
    for (const [name, value] of Object.entries(headers as object)) {
      if (typeof value !== "string" || /[\r\n\0]/.test(value)) {
        return `must hold strings without line breaks: ${name} does not`;
      }
    }
    return undefined;
  },
};

function emit<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (!hook) return;
  try {
    hook(event);
  } catch {
    // A failing observer must not fail the payment call it observes.
  }
}
