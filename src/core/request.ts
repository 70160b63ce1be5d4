/**
 * The request policy: prepare → attempt → classify → retry or sleep → parse → events. It decides which failures are
 * retried, with which key, how long to wait, and how an answer is read; the wire (`http.ts`) only moves bytes.
 *
 * @module
 */

import type * as z from "zod/mini";
import {
  type APIError,
  ConnectionError,
  type InputIssue,
  InputValidationError,
  MAX_JSON_DEPTH,
  type MerchantPaymentsError,
  type RequestContext,
  type RequestError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from "../errors.js";
import { loadSchemas, type Schemas } from "../schemas/load.js";
import type { Drift } from "../schemas/parse.js";
import {
  CREDENTIAL_HEADERS,
  headerNameProblem,
  headerValueTextProblem,
  RESERVED_HEADERS,
} from "../validate/headers.js";
import {
  checkOptions,
  describeType,
  inputIssue,
  invalidInput,
  isRecord,
  nearestName,
  type ProblemOf,
} from "../validate/issues.js";
import { isLoopback } from "../validate/rules.js";
import { SDK_VERSION } from "../version.js";
import { apiErrorFrom } from "./api-error.js";
import { type Answer, APIPromise } from "./api-promise.js";
import {
  apiVersionProblem,
  countProblem,
  type DriftEvent,
  durationProblem,
  headerValueProblem,
  type RequestEvent,
  type ResolvedConfig,
} from "./config.js";
import { createHttp, type Http, type SocketPool, WireFailure, type WireResponse } from "./http.js";
import { newIdempotencyKey } from "./idempotency.js";
import { parseJson } from "./json.js";
import { log } from "./log.js";
import { createRedactor, type Redactor } from "./redact.js";
import { abortErrorOf, isRetryableStatus, parseRetryAfter, retryDelayMs, sleep } from "./retry.js";
import { type CallTrace, createTelemetry, type Telemetry } from "./telemetry/instrument.js";
import { telemetryProviders } from "./telemetry/options.js";

/** Any zod schema: operations name the one their response must match. */
type Schema = z.core.$ZodType;

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

/**
 * Response headers that may carry the service's request id, in order of preference. The interface document names
 * none: these are a guess (the bundled mock sends `Request-Id`), kept here and nowhere else.
 */
export const REQUEST_ID_HEADERS: readonly string[] = ["request-id", "x-request-id"];

/** Response headers never exposed by `withResponse()`: credentials echoed back, and cookies. */
const HIDDEN_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  ...CREDENTIAL_HEADERS,
  "authorization",
  "proxy-authorization",
  "set-cookie",
  "cookie",
]);

/** The HTTP methods the interface uses. */
export type HttpMethod = "GET" | "POST" | "PUT";

/** One operation of the interface, as a resource method describes it. The policy does the rest. */
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

const USER_AGENT = `merchant-payments/${SDK_VERSION}`;

/** What stays the same across the attempts of one call, the idempotency key above all. */
interface PreparedCall {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  signal: AbortSignal | undefined;
  /** A POST may be repeated only under an idempotency key: the service then replays instead of creating twice. */
  safeToRepeat: boolean;
  /** The call as hooks see it (attempt 0); errors take its method and path. */
  event: RequestEvent;
}

/** An attempt that did not produce a usable answer, and what another attempt may do about it. */
interface FailedAttempt {
  error: MerchantPaymentsError;
  /** Another attempt may get a different answer. */
  retryable: boolean;
  /** The service itself said it did not act (its own `rate_limited` body): even an unkeyed POST may repeat. */
  refusedByService: boolean;
  reason: string;
  retryAfterMs?: number | undefined;
}

type AttemptOutcome<T> = { answer: Answer<T> } | FailedAttempt;

/**
 * The policy of one client: assembles headers, sends through the wire, retries when that is safe, maps failures to
 * typed errors, and reads bodies with zod. Resources only describe operations.
 */
export class Transport {
  readonly #config: ResolvedConfig;
  readonly #http: Http;
  readonly #redactor: Redactor;
  /** Drift already written to the log, per response schema: `METHOD field`. */
  readonly #driftLogged = new WeakMap<Schema, Set<string>>();
  /** The headers every call starts from (credentials, User-Agent, the pinned version), built once per client. */
  readonly #baseHeaders: Readonly<Record<string, string>>;
  /** Whether anyone listens (hooks or a logger): events are only built then, off the hot path otherwise. */
  readonly #observed: boolean;
  /** True when the base URL is a loopback host: the client talks to a local mock, never to the real service. */
  readonly talksToLoopback: boolean;
  /** OpenTelemetry spans and metrics, only when the `telemetry` option is on. */
  readonly #telemetry: Telemetry | undefined;

  /** The sockets of this client's family: `withOptions()` hands them to the client it makes. */
  get pool(): SocketPool {
    return this.#http.pool;
  }

  constructor(config: ResolvedConfig, pool?: SocketPool) {
    this.#config = config;
    this.talksToLoopback = isLoopback(new URL(config.baseUrl).hostname);
    this.#baseHeaders = baseHeadersOf(config);
    this.#observed = config.hooks !== undefined || config.logger !== undefined;
    const { credentials } = config;
    this.#redactor = createRedactor(credentials.scheme === "apiKey" ? credentials.apiKey : undefined);
    this.#http = createHttp({
      fetch: config.fetch,
      maxResponseBytes: config.maxResponseBytes,
      maxSockets: config.maxSockets,
      pool,
    });
    const telemetry = telemetryProviders(config.telemetry);
    this.#telemetry = telemetry && createTelemetry(telemetry, config.baseUrl);
  }

  /**
   * Sends an operation and resolves to its parsed response, or rejects with a typed error. `describe` builds the
   * operation (checking the method's inputs) inside the promise, so a bad input is a rejection like any other.
   */
  request<S extends Schema>(
    describe: (schemas: Schemas) => Operation<S>,
    options?: RequestOptions,
  ): APIPromise<z.output<S>> {
    return new APIPromise(this.#run(describe, options));
  }

  async #run<S extends Schema>(
    describe: (schemas: Schemas) => Operation<S>,
    options: RequestOptions | undefined,
  ): Promise<Answer<z.output<S>>> {
    const schemas = await loadSchemas();
    const operation = describe(schemas);
    // Checked before a key is made: a bad option is refused without loading anything.
    if (options !== undefined) checkRequestOptions(options);
    const idempotencyKey =
      options?.idempotencyKey ??
      (operation.idempotencyKey === "always" ? await newIdempotencyKey() : undefined);
    const call = this.#prepare(operation, options, idempotencyKey);
    const send = (trace?: CallTrace) => this.#send(schemas, operation.response, call, trace);
    return this.#telemetry ? this.#telemetry.traced(call.event, send) : send();
  }

  /** The attempts of one call, until one is answered or no retry is allowed. */
  async #send<S extends Schema>(
    schemas: Schemas,
    schema: S,
    call: PreparedCall,
    trace: CallTrace | undefined,
  ): Promise<Answer<z.output<S>>> {
    for (let attempt = 0; ; attempt++) {
      if (call.signal?.aborted) throw abortErrorOf(call.signal);
      const outcome = await this.#attempt(schemas, schema, call, attempt);
      if ("answer" in outcome) return outcome.answer;
      const mayRepeat = call.safeToRepeat || outcome.refusedByService;
      if (!outcome.retryable || !mayRepeat || attempt >= call.maxRetries) throw outcome.error;
      const delayMs = retryDelayMs(this.#config.retry, attempt + 1, outcome.retryAfterMs);
      if (this.#observed) this.#emitRetry({ ...call.event, attempt }, delayMs, outcome.reason);
      trace?.retry(attempt, delayMs, outcome.reason);
      await sleep(delayMs, call.signal);
    }
  }

  #prepare(
    operation: Operation<Schema>,
    options: RequestOptions | undefined,
    idempotencyKey: string | undefined,
  ): PreparedCall {
    return {
      method: operation.method,
      url: this.#url(operation),
      headers: this.#headers(operation, options ?? {}, idempotencyKey),
      body: operation.body === undefined ? undefined : JSON.stringify(operation.body),
      timeoutMs: options?.timeoutMs ?? this.#config.timeoutMs,
      maxRetries: options?.maxRetries ?? this.#config.retry.maxRetries,
      signal: options?.signal,
      // GET and PUT are idempotent in HTTP: repeating them cannot create a second resource.
      safeToRepeat: operation.method !== "POST" || idempotencyKey !== undefined,
      event: { method: operation.method, path: operation.path, attempt: 0, idempotencyKey },
    };
  }

  /** One attempt: send, then classify what came back (or how nothing did). */
  async #attempt<S extends Schema>(
    schemas: Schemas,
    schema: S,
    call: PreparedCall,
    attempt: number,
  ): Promise<AttemptOutcome<z.output<S>>> {
    const event = this.#observed ? { ...call.event, attempt } : call.event;
    if (this.#observed) emit(this.#config.hooks?.onRequest, event);
    const started = this.#observed ? performance.now() : 0;
    let response: WireResponse;
    try {
      const { method, url, headers, body, timeoutMs, signal } = call;
      response = await this.#http.send({ method, url, headers, body, timeoutMs, signal });
    } catch (error) {
      // Only the wire's own failures are classified; anything else is a bug and reaches the caller unchanged.
      if (!(error instanceof WireFailure)) throw error;
      return wireFailureOutcome(error, call, this.#config.maxResponseBytes);
    }
    const requestId = this.#requestIdOf(response.headers);
    if (this.#observed) this.#emitResponse(event, response.status, performance.now() - started, requestId);
    if (response.status < 200 || response.status > 299) return this.#refusal(response, call, requestId);
    return { answer: this.#read(schemas, schema, response, call.event, requestId) };
  }

  /** A non-2xx answer: its typed error, and whether repeating may help. */
  #refusal(response: WireResponse, call: PreparedCall, requestId: string | undefined): FailedAttempt {
    const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
    const retryAfterMs =
      retryAfter === undefined ? undefined : Math.min(retryAfter, this.#config.retry.maxRetryAfterMs);
    const error = apiErrorFrom(
      { status: response.status, text: response.text, requestId, retryAfterMs },
      call.event,
      this.#redactor,
    );
    return answeredFailure(error, retryAfterMs);
  }

  /**
   * Reads a 2xx body: bounded JSON, the API key redacted, then the operation's schema in the client's reading mode.
   * An answer that arrived is never reported as unsent: whatever is wrong with it is a ResponseValidationError (or
   * ResponseTooLargeError), and it is not retried.
   */
  #read<S extends Schema>(
    { readResponse }: Schemas,
    schema: S,
    response: WireResponse,
    request: RequestContext,
    requestId: string | undefined,
  ): Answer<z.output<S>> {
    const { status, text } = response;
    const invalid = (issues: ResponseValidationError["issues"], rawBody: unknown) =>
      new ResponseValidationError({ request, status, rawBody, issues, requestId });
    const parsed = parseJson(text);
    if (parsed.kind === "too_deep")
      throw new ResponseTooLargeError(request, { depth: MAX_JSON_DEPTH }, requestId);
    if (parsed.kind === "not_json") {
      throw invalid([{ path: "", message: "body is not JSON" }], this.#redactor.text(text));
    }
    const json =
      parsed.kind === "json" && this.#redactor.suspects(text)
        ? this.#redactor.value(parsed.value)
        : undefined;
    const body = parsed.kind === "json" ? (json ?? parsed.value) : undefined;
    const result = readResponse(schema, body, this.#config.responseValidation);
    if (!result.success) throw invalid(result.issues, body);
    for (const entry of result.drift) this.#emitDrift(request, schema, entry);
    return {
      data: result.data,
      status,
      requestId,
      idempotentReplayed: response.headers.get("idempotent-replayed")?.toLowerCase() === "true",
      headers: () => this.#exposedHeaders(response.headers),
    };
  }

  /** The request id of an answer, redacted: a proxy may echo the key there too. */
  #requestIdOf(headers: Headers): string | undefined {
    for (const name of REQUEST_ID_HEADERS) {
      const value = headers.get(name);
      if (value) return this.#redactor.text(value);
    }
    return undefined;
  }

  /** The headers `withResponse()` shows: a copy without credentials or cookies, the key redacted from the rest. */
  #exposedHeaders(headers: Headers): Headers {
    const exposed = new Headers();
    headers.forEach((value, name) => {
      if (!HIDDEN_RESPONSE_HEADERS.has(name)) exposed.append(name, this.#redactor.text(value));
    });
    return exposed;
  }

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
    if (options.headers) Object.assign(headers, callerHeaders(options.headers, config.versionHeader));
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

  #emitDrift(request: RequestContext, schema: Schema, drift: Drift): void {
    const redact = this.#redactor.text;
    const event: DriftEvent = {
      operation: `${request.method} ${request.path}`,
      path: redact(drift.path),
      expected: redact(drift.expected),
      received: redact(drift.received),
    };
    emit(this.#config.hooks?.onDrift, event);
    // Hooks see every deviation; the log gets each one once per operation (its response schema) and field, so that
    // a drifting service does not flood it with one line per call.
    const logged = this.#driftLogged.get(schema) ?? new Set<string>();
    this.#driftLogged.set(schema, logged);
    if (logged.has(`${request.method} ${event.path}`)) return;
    logged.add(`${request.method} ${event.path}`);
    log(this.#config, "warn", `response drift in ${event.operation} at ${event.path || "(body)"}`, {
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

/** How the wire failed, as the policy reads it: only a network failure is a (retryable) ConnectionError. */
function wireFailureOutcome(
  failure: WireFailure,
  call: PreparedCall,
  maxResponseBytes: number,
): FailedAttempt {
  const request = call.event;
  switch (failure.kind) {
    case "aborted":
      throw abortErrorOf(call.signal);
    case "timeout":
      return {
        error: new TimeoutError(request, call.timeoutMs),
        retryable: true,
        refusedByService: false,
        reason: "timeout",
      };
    case "too_large":
      // The next answer would be as large: not worth another download.
      return {
        error: new ResponseTooLargeError(
          request,
          { bytes: failure.limitBytes ?? maxResponseBytes },
          undefined,
        ),
        retryable: false,
        refusedByService: false,
        reason: "too_large",
      };
    case "unreadable":
      // The service answered: the status says what it did, however the body failed. Repeated only where safe.
      return {
        error: unreadableAnswer(request, failure.status ?? 0),
        retryable: true,
        refusedByService: false,
        reason: "unreadable",
      };
    case "network":
      return {
        error: new ConnectionError(request, { cause: failure.cause }),
        retryable: true,
        refusedByService: false,
        reason: "connection",
      };
  }
}

/** An answer whose body could not be read whole: a ResponseValidationError for a 2xx, the status's APIError else. */
function unreadableAnswer(request: RequestContext, status: number): RequestError {
  if (status >= 200 && status <= 299) {
    const issues = [{ path: "", message: "the body could not be read whole (cut off or undecodable)" }];
    return new ResponseValidationError({ request, status, rawBody: undefined, issues, requestId: undefined });
  }
  return apiErrorFrom({ status, text: "", requestId: undefined, retryAfterMs: undefined }, request, NO_KEY);
}

/** An empty body holds no key: nothing to redact. */
const NO_KEY = createRedactor(undefined);

/**
 * A non-2xx answer. Only the service's own `rate_limited` body says it did not act on the request; a bare 429 or a
 * 5xx may come from a proxy that forwarded it first, so those repeat only when repeating is safe anyway.
 */
function answeredFailure(error: APIError, retryAfterMs: number | undefined): FailedAttempt {
  const refusedByService = error.code === "rate_limited";
  const rateLimited = refusedByService || error.status === 429;
  return {
    error,
    retryable: refusedByService || isRetryableStatus(error.status),
    refusedByService,
    reason: rateLimited ? "rate_limited" : String(error.status),
    retryAfterMs,
  };
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

/** A caller's extra headers, checked (fetch's rules, no reserved name) and lower-cased. */
function callerHeaders(
  headers: Record<string, string>,
  versionHeader: string | undefined,
): Record<string, string> {
  const issues: InputIssue[] = [];
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const field = `options.headers.${name}`;
    const lower = name.toLowerCase();
    const problem =
      headerNameProblem(name) ??
      (RESERVED_HEADERS.has(lower)
        ? "is set by the SDK (or frames the message): it cannot be given"
        : undefined) ??
      (lower === versionHeader?.toLowerCase()
        ? "is the version header: pin it with options.apiVersion"
        : undefined) ??
      headerValueTextProblem(value);
    if (problem === undefined) out[lower] = value;
    else issues.push(inputIssue(field, problem));
  }
  if (issues.length > 0) throw new InputValidationError(issues);
  return out;
}

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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function emit<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (!hook) return;
  try {
    hook(event);
  } catch {
    // A failing observer must not fail the payment call it observes.
  }
}
