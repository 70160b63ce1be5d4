/**
 * The transport: one client's loop from an operation to its result. It fills the operation's row with the method's
 * input, builds the headers, sends each attempt through the wire adapters (`http.ts`), turns what came back into a
 * result or a typed error, and retries when `shouldRetry` (`retry.ts`) says so. Resources only name a row.
 *
 * @module
 */
import type * as z from "zod/mini";
import { isMerchantPaymentsError, MerchantPaymentsError } from "../errors.js";
import type { CallInput, OperationRow, ResultOf } from "../operations.js";
import { loadedSchemas, loadSchemas, type Schemas } from "../schemas/load.js";
import type { SchemaRunner } from "../schemas/parse.js";
import { fillPath } from "../validate/path-template.js";
import { isLoopback, type ReturnUrlRule } from "../validate/rules.js";
import { abortErrorOf } from "./abort.js";
import { apiErrorFrom } from "./api-error.js";
import { APIPromise, type CallResult, type ResponseView } from "./api-promise.js";
import type { ResolvedConfig } from "./config.js";
import { attemptTimeoutMs, deadlineOf, fitsBefore } from "./deadline.js";
import { Events } from "./events.js";
import { type FailedAttempt, isSuccessStatus, statusFailureOf, wireFailureOf } from "./failures.js";
import {
  callHeadersOf,
  constantHeadersOf,
  exposedHeaders,
  isIdempotentReplay,
  requestIdOf,
} from "./headers.js";
import { answerOf, createHttp, type Http, type SocketPool, WireFailure, type WireResponse } from "./http.js";
import { newIdempotencyKey } from "./idempotency.js";
import type { Observers } from "./observers.js";
import type { RequestEvent } from "./options.js";
import { createRedactor, type Redactor } from "./redact.js";
import { checkRequestOptions, type RequestOptions, refuseMisplacedOptions } from "./request-options.js";
import { type BodyReader, readBody } from "./response-body.js";
import { parseRetryAfter, retryDelayMs, shouldRetry, sleep } from "./retry.js";
import { type CallTrace, createTelemetry, type Telemetry } from "./telemetry/instrument.js";

/** Any zod schema: rows name the one their response must match. */
type Schema = z.core.$ZodType;

type Query = Record<string, string | number | boolean | undefined>;

/** The options of a call given none (shared: a call without options allocates none). */
const NO_OPTIONS: RequestOptions = Object.freeze({});

/** The path parameters of a call given none. */
const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});

/** One call of an operation: its row filled with the method's input. */
interface Operation {
  row: OperationRow;
  /** Path below the base URL, ids encoded. */
  path: string;
  query: Query | undefined;
  /** The body's JSON text; `undefined` sends none. */
  body: string | undefined;
  response: Schema;
  /** How the response schema runs: the SDK's own may run as zod's compiled code, a caller's as its author wrote it. */
  runner: SchemaRunner;
}

/** What stays the same across the attempts of one call, the idempotency key above all. */
interface PreparedCall {
  method: OperationRow["method"];
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  signal: AbortSignal | undefined;
  /** The deadline of the wait this call belongs to (`deadline.ts`): no attempt or retry sleep runs past it. */
  deadline: number | undefined;
  /** A POST may be repeated only under an idempotency key: the service then replays instead of creating twice. */
  safeToRepeat: boolean;
  /** The call as events see it (attempt 0); errors take its method and path. */
  event: RequestEvent;
}

/**
 * The methods HTTP defines as idempotent: a repeat has the effect of one call. (Compared, not looked up in a set:
 * this runs on every call.)
 */
function isIdempotentMethod(method: OperationRow["method"]): boolean {
  return method === "GET" || method === "PUT" || method === "DELETE";
}

/**
 * The rules of custom operations: their body and query are the caller's own, where a field named like a request
 * option (`merchantId`, `headers`) may well be meant for the service.
 */
function isFreeForm(rule: string): boolean {
  return rule === "toJsonBody" || rule === "flatQuerySchema";
}

/** The transport of one client. */
export class Transport {
  readonly #config: ResolvedConfig;
  readonly #http: Http;
  /** The wire of merchant-scoped calls: its constant headers hold the client's `Merchant-Id` (`#http` without one). */
  readonly #merchantScopedHttp: Http;
  readonly #redactor: Redactor;
  readonly #events: Events;
  /** OpenTelemetry spans and metrics, only when the `telemetry` option is on. */
  readonly #telemetry: Telemetry | undefined;
  /**
   * The return URLs checkouts may carry: plain http only towards a mock, on a loopback `baseUrl` (loopback hosts) or
   * under `allowInsecureHttp`, which needs a test-mode key (any host). The real service gets https only. Given to
   * the body builders as is: one object per client, not per call.
   */
  readonly #bodyContext: { returnUrls: ReturnUrlRule };
  /** How `withResponse()` shows this client's responses' headers: the key redacted, credentials removed. */
  readonly #responseView: ResponseView;
  /**
   * How this client reads a 2xx body, by how the operation's schema runs: one object each per client, made with the
   * first body read (the schemas' module, whose reader they hold, loads with the first call).
   */
  #bodyReaders: Readonly<Record<SchemaRunner, BodyReader>> | undefined;

  /** The guard every observer of this client runs behind (hooks, logger, telemetry, `onUpdate`). */
  get observers(): Observers {
    return this.#events.observers;
  }

  /** The sockets of this client's family: `withOptions()` hands them to the client it makes. */
  get pool(): SocketPool {
    return this.#http.pool;
  }

  /** `pool`: the sockets of the client's `withOptions()` parent, shared when the sizes agree. */
  constructor(config: ResolvedConfig, pool?: SocketPool) {
    this.#config = config;
    this.#bodyContext = {
      returnUrls: config.allowInsecureHttp
        ? "any-http"
        : isLoopback(new URL(config.baseUrl).hostname)
          ? "loopback-http"
          : "https",
    };
    const { credentials } = config;
    this.#redactor = createRedactor(credentials.scheme === "apiKey" ? credentials.apiKey : undefined);
    this.#events = new Events(config, this.#redactor);
    this.#responseView = {
      headers: (raw) => exposedHeaders(raw, this.#redactor),
      idempotentReplayed: isIdempotentReplay,
    };
    const { fetch, maxResponseBytes, maxSockets } = config;
    const { all, merchantScoped } = constantHeadersOf(config);
    const wire = { fetch, maxResponseBytes, maxSockets };
    this.#http = createHttp({ ...wire, headers: all, pool });
    // One wire per set of constant headers, on the same sockets: the client's merchant is written by the fetch too.
    this.#merchantScopedHttp =
      merchantScoped === all ? this.#http : createHttp({ ...wire, headers: merchantScoped, pool: this.pool });
    this.#telemetry =
      config.telemetry && createTelemetry(config.telemetry, config.baseUrl, this.#events.observers);
  }

  /**
   * Sends the operation of `row` and resolves to its parsed response, or rejects with a typed error. The ids, the
   * input and the options are checked inside the promise, so a bad input is a rejection like any other.
   */
  call<R extends OperationRow>(row: R, input: CallInput, options?: RequestOptions): APIPromise<ResultOf<R>> {
    return new APIPromise(this.#run(row, input, options)) as APIPromise<ResultOf<R>>;
  }

  /**
   * A plain function, not an async one: once the schemas and `uuid` are loaded (after the first calls), the call's
   * promise is the attempts' own, one promise and one `await` fewer per call. What it throws before sending becomes
   * that promise's rejection, as in an async function.
   */
  #run(
    row: OperationRow,
    input: CallInput,
    options: RequestOptions | undefined,
  ): Promise<CallResult<unknown>> {
    try {
      const schemas = loadedSchemas();
      if (schemas === undefined) return loadSchemas().then(() => this.#run(row, input, options));
      const operation = this.#operationOf(schemas, row, input);
      // Checked before a key is made: a bad option is refused without loading anything.
      if (options !== undefined) checkRequestOptions(options);
      const key =
        options?.idempotencyKey ?? (row.idempotencyKey === "always" ? newIdempotencyKey() : undefined);
      // Made at once once `uuid` is loaded; only the first keyed calls wait for it.
      if (key instanceof Promise)
        return key.then((made) => this.#sendCall(schemas, operation, options, made));
      return this.#sendCall(schemas, operation, options, key);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The call prepared and its attempts sent, traced when telemetry is on, with the row's result field unwrapped. */
  #sendCall(
    schemas: Schemas,
    operation: Operation,
    options: RequestOptions | undefined,
    idempotencyKey: string | undefined,
  ): Promise<CallResult<unknown>> {
    const call = this.#prepare(operation, options, idempotencyKey);
    const { row } = operation;
    // Without telemetry no closure is made: this runs on every call.
    const result = this.#telemetry
      ? this.#telemetry.traced(call.event, row.path, (trace) => this.#send(schemas, operation, call, trace))
      : this.#send(schemas, operation, call, undefined);
    const field = row.unwrap;
    return field === undefined ? result : result.then((sent) => unwrapped(sent, field));
  }

  /**
   * The attempts of one call, until one is answered or no retry is allowed. Each attempt's exchange is awaited here,
   * not in a function of its own: a promise fewer on every call.
   */
  async #send(
    schemas: Schemas,
    operation: Operation,
    call: PreparedCall,
    trace: CallTrace | undefined,
  ): Promise<CallResult<unknown>> {
    const events = this.#events;
    const http = operation.row.merchantScoped ? this.#merchantScopedHttp : this.#http;
    for (let attempt = 0; ; attempt++) {
      if (call.signal?.aborted) throw abortErrorOf(call.signal);
      const timeoutMs = attemptTimeoutMs(call.timeoutMs, call.deadline);
      // The wait's deadline has passed: no attempt starts, the call ends as one that timed out.
      if (timeoutMs === undefined)
        throw this.#wireFailure(new WireFailure("timeout"), { ...call, timeoutMs: 0 }).error;
      const event = events.observed ? { ...call.event, attempt } : call.event;
      if (events.observed) events.request(event);
      const started = events.observed ? performance.now() : 0;
      let response: WireResponse;
      try {
        response = answerOf(await http.send(call, timeoutMs));
      } catch (thrown) {
        const error = http.failureOf(thrown);
        // Only the wire adapters' own failures are classified; anything else is a bug: not retried, still typed.
        if (!(error instanceof WireFailure)) throw unexpectedFailure(error, call.event, this.#redactor);
        await this.#retryOrThrow(this.#wireFailure(error, { ...call, timeoutMs }), call, attempt, trace);
        continue;
      }
      const { status } = response;
      const requestId = requestIdOf(response, this.#redactor);
      if (events.observed) events.response(event, status, performance.now() - started, requestId);
      if (isSuccessStatus(status)) return this.#result(schemas, operation, response, call.event, requestId);
      await this.#retryOrThrow(this.#failedStatus(response, call, requestId), call, attempt, trace);
    }
  }

  /** Throws the failed attempt's error when no retry is allowed; else announces the retry and sleeps before it. */
  async #retryOrThrow(
    failed: FailedAttempt,
    call: PreparedCall,
    attempt: number,
    trace: CallTrace | undefined,
  ): Promise<void> {
    if (!shouldRetry(failed, call, attempt)) throw failed.error;
    const delayMs = retryDelayMs(this.#config.retry, attempt + 1, failed.retryAfterMs);
    // A retry sleep that would end past the wait's deadline is not taken: the call ends with this failure now.
    if (!fitsBefore(call.deadline, delayMs)) throw failed.error;
    if (this.#events.observed) this.#events.retry({ ...call.event, attempt }, delayMs, failed.reason);
    trace?.retry(attempt, delayMs, failed.reason);
    await sleep(delayMs, call.signal);
  }

  /** The operation a row and a method's input make: ids checked into the path, the inputs into a body and query. */
  #operationOf(
    schemas: Schemas,
    row: OperationRow,
    { params = NO_PARAMS, body: bodyInput, query: queryInput }: CallInput,
  ): Operation {
    const path = fillPath(row.path, params);
    let query: Query | undefined;
    if (row.query) {
      if (!isFreeForm(row.query)) refuseMisplacedOptions(queryInput, "query", row.call);
      query = schemas.parseInput(schemas[row.query], queryInput, "query") as Query;
    }
    let body: string | undefined;
    if (row.body) {
      if (!isFreeForm(row.body)) refuseMisplacedOptions(bodyInput, "input", row.call);
      const build = schemas[row.body] as (input: unknown, context: object) => unknown;
      // Serialised at once: the checked input is not kept alive for the whole exchange, only its text.
      body = JSON.stringify(build(bodyInput, this.#bodyContext));
    }
    // A row names the SDK's own schema, or holds a caller's (`client.request`).
    if (typeof row.response === "string") {
      return { row, path, query, body, response: schemas[row.response], runner: "compiled" };
    }
    return { row, path, query, body, response: row.response, runner: "interpreted" };
  }

  #prepare(
    operation: Operation,
    options: RequestOptions = NO_OPTIONS,
    idempotencyKey: string | undefined,
  ): PreparedCall {
    const { method, merchantScoped } = operation.row;
    const { body } = operation;
    const call = { merchantScoped, idempotencyKey };
    return {
      method,
      url: this.#url(operation),
      headers: callHeadersOf(this.#config, call, options),
      body,
      timeoutMs: options.timeoutMs ?? this.#config.timeoutMs,
      maxRetries: options.maxRetries ?? this.#config.retry.maxRetries,
      signal: options.signal,
      deadline: deadlineOf(options),
      // GET, PUT and DELETE are idempotent in HTTP: repeating them cannot act twice. POST and PATCH only under a key.
      safeToRepeat: isIdempotentMethod(method) || idempotencyKey !== undefined,
      event: { method, path: operation.path, attempt: 0, idempotencyKey },
    };
  }

  /** How the wire failed, read as a failed attempt; `call.timeoutMs` is the attempt's own (the deadline's cut). */
  #wireFailure(failure: WireFailure, call: PreparedCall): FailedAttempt {
    return wireFailureOf(failure, call.event, { ...call, maxResponseBytes: this.#config.maxResponseBytes });
  }

  /** A non-2xx response: its typed error, and whether repeating may help. */
  #failedStatus(response: WireResponse, call: PreparedCall, requestId: string | undefined): FailedAttempt {
    const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
    const retryAfterMs =
      retryAfter === undefined ? undefined : Math.min(retryAfter, this.#config.retry.maxRetryAfterMs);
    const error = apiErrorFrom(
      { status: response.status, text: response.text, requestId, retryAfterMs },
      call.event,
      this.#redactor,
    );
    return statusFailureOf(error, retryAfterMs);
  }

  /** A 2xx response, its body read with the operation's schema. */
  #result(
    schemas: Schemas,
    { response: schema, runner }: Operation,
    response: WireResponse,
    request: RequestEvent,
    requestId: string | undefined,
  ): CallResult<unknown> {
    this.#bodyReaders ??= this.#bodyReadersOf(schemas);
    const { data, drift } = readBody(this.#bodyReaders[runner], schema, response, request, requestId);
    for (const entry of drift) this.#events.drift(request, schema, entry);
    return {
      data,
      status: response.status,
      requestId,
      rawHeaders: response.headers,
      view: this.#responseView,
    };
  }

  #bodyReadersOf({ readResponse }: Schemas): Record<SchemaRunner, BodyReader> {
    const { responseValidation: mode } = this.#config;
    const reader = (runner: SchemaRunner): BodyReader => ({
      readResponse,
      redactor: this.#redactor,
      mode,
      runner,
    });
    return { compiled: reader("compiled"), interpreted: reader("interpreted") };
  }

  #url(operation: Operation): string {
    const url = this.#config.baseUrl + operation.path;
    if (!operation.query) return url;
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(operation.query)) {
      if (value !== undefined) params.append(name, String(value));
    }
    const query = params.toString();
    return query ? `${url}?${query}` : url;
  }
}

/**
 * A failure the wire adapters did not classify (a dependency that cannot be loaded, a broken runtime, a bug): a
 * {@link MerchantPaymentsError} naming the request and quoting the original, the key redacted. The original is not
 * kept as the cause: it may hold the request, headers included.
 */
function unexpectedFailure(error: unknown, request: RequestEvent, redactor: Redactor): MerchantPaymentsError {
  if (isMerchantPaymentsError(error)) return error;
  const what = error instanceof Error ? `${error.name}: ${redactor.text(error.message)}` : typeof error;
  return new MerchantPaymentsError(`${request.method} ${request.path} failed inside the SDK (${what})`);
}

/** The result with its data replaced by the field the row names as the result. */
function unwrapped(result: CallResult<unknown>, field: string): CallResult<unknown> {
  return { ...result, data: (result.data as Record<string, unknown>)[field] };
}
