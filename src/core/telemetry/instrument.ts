/**
 * OpenTelemetry for the calls of one client: one CLIENT span per call (its retries as span events) and the
 * `http.client.request.duration` histogram, named by the semantic conventions for HTTP clients. `@opentelemetry/api`
 * is an optional peer: it is imported when a client whose `telemetry` option is on is made (so that a missing
 * package is reported then, once), and the providers are asked for their tracer and meter with the first call. A
 * client without telemetry never reaches this module's code.
 *
 * Telemetry is an observer (`observers.ts`): every use of the OpenTelemetry API, and so of the providers, processors
 * and exporters behind it, runs behind the client's guard. When any of it fails, the failure is reported once,
 * telemetry is turned off for the client, and the call, and every later one, goes on untraced with its own outcome.
 *
 * What is recorded is low-cardinality and secret-free by construction: the method, the route template (never the path
 * with its ids, nor the query), the server's host and port, the status, an error type, the request id on the span.
 * Never a header value, so never the API key.
 *
 * @module
 */
import type * as Otel from "@opentelemetry/api";
import { SDK_VERSION } from "../../version.js";
import type { CallResult } from "../api-promise.js";
import type { Observers } from "../observers.js";
import type { RequestEvent } from "../options.js";
import type { TelemetryOptions } from "./options.js";

/** What the transport reports to the span of one call between its start and its end. */
export interface CallTrace {
  /** A failed attempt is about to be repeated: `attempt` is the one that failed (0 for the first). */
  retry(attempt: number, delayMs: number, reason: string): void;
}

/** The telemetry of one client. */
export interface Telemetry {
  /** Runs one call (`send`, its attempts and retries) inside its client span, then records the span and duration. */
  traced<T>(
    call: RequestEvent,
    template: string,
    send: (trace: CallTrace) => Promise<CallResult<T>>,
  ): Promise<CallResult<T>>;
}

/** The scope name spans and metrics carry (`otel.scope.name`). */
const SCOPE = "merchant-payments";
/** The semantic conventions' advice for `http.client.request.duration`, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

interface Instruments {
  api: typeof Otel;
  tracer: Otel.Tracer;
  duration: Otel.Histogram;
}

/** Runs the SDK's telemetry code behind the client's guard: its result, or `undefined` once telemetry failed. */
type Guard = <T>(work: () => T) => T | undefined;

/** The trace of a call that is not traced (telemetry off, or failed). */
const UNTRACED: CallTrace = { retry() {} };

/**
 * Creates the telemetry of a client whose `telemetry` option is on, and starts importing `@opentelemetry/api`: a
 * missing package is reported once, now, and the client's calls go on untraced. The providers are not touched
 * until the first call (a global provider may be registered after the client is made).
 */
export function createTelemetry(
  providers: TelemetryOptions,
  baseUrl: string,
  observers: Observers,
): Telemetry {
  const url = new URL(baseUrl);
  const server: Otel.Attributes = {
    "server.address": url.hostname.replace(/^\[(.*)\]$/, "$1"),
    "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)),
  };
  // The identity under which the guard turns this client's telemetry off.
  const token = {};
  const guard: Guard = (work) => observers.run(token, "telemetry", work);
  const api = importApi((error) => observers.fail(token, "telemetry", missingPeer(error)));
  let instruments: Instruments | undefined;
  return {
    async traced(call, template, send) {
      const otel = await api;
      if (otel === undefined || !observers.isOn(token)) return send(UNTRACED);
      instruments ??= guard(() => instrumentsOf(otel, providers));
      if (instruments === undefined) return send(UNTRACED);
      return tracedCall(instruments, guard, server, { ...call, template }, send);
    },
  };
}

/** The optional peer, or `undefined` (after `onMissing`) when it cannot be imported. */
async function importApi(onMissing: (error: unknown) => void): Promise<typeof Otel | undefined> {
  try {
    // Awaited inside a try, which esbuild reads as optional; webpack and Turbopack (Next.js) are told to leave it to
    // run time: an app without the optional peer bundles, and only a client with `telemetry` on needs it.
    return await import(/* webpackIgnore: true */ /* @vite-ignore */ "@opentelemetry/api");
  } catch (error) {
    onMissing(error);
    return undefined;
  }
}

/** Why telemetry is off when the peer could not be imported: what to install, and what failed (its name only). */
function missingPeer(error: unknown): string {
  const name = error instanceof Error ? error.name : typeof error;
  return `the telemetry option needs the @opentelemetry/api package, which could not be loaded (${name}): install it (npm install @opentelemetry/api)`;
}

/** The tracer and the histogram of the client's providers (the global ones where none is given). */
function instrumentsOf(api: typeof Otel, providers: TelemetryOptions): Instruments {
  const tracerProvider = (providers.tracerProvider ?? api.trace.getTracerProvider()) as Otel.TracerProvider;
  const meterProvider = (providers.meterProvider ?? api.metrics.getMeterProvider()) as Otel.MeterProvider;
  const duration = meterProvider
    .getMeter(SCOPE, SDK_VERSION)
    .createHistogram("http.client.request.duration", {
      description: "Duration of HTTP client requests.",
      unit: "s",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
  return { api, tracer: tracerProvider.getTracer(SCOPE, SDK_VERSION), duration };
}

/** The span of one call, and the context that makes it the active span. */
interface Started {
  span: Otel.Span;
  context: Otel.Context;
}

/**
 * One call in its span: the span is the active one while the attempts run, so lower-level spans nest under it.
 * `send` runs exactly once, whatever the telemetry does: untraced when the span cannot be started, outside the span's
 * context when that cannot be entered; its result or error is the call's, unchanged.
 */
async function tracedCall<T>(
  { api, tracer, duration }: Instruments,
  guard: Guard,
  server: Otel.Attributes,
  call: RequestEvent & { template: string },
  send: (trace: CallTrace) => Promise<CallResult<T>>,
): Promise<CallResult<T>> {
  const { template } = call;
  const attributes: Otel.Attributes = {
    "http.request.method": call.method,
    "url.template": template,
    ...server,
  };
  const started = guard((): Started => {
    const parent = api.context.active();
    const options = { kind: api.SpanKind.CLIENT, attributes };
    const span = tracer.startSpan(`${call.method} ${template}`, options, parent);
    return { span, context: api.trace.setSpan(parent, span) };
  });
  if (started === undefined) return send(UNTRACED);
  const { span } = started;
  const startedAt = performance.now();
  let resends = 0;
  const trace: CallTrace = {
    retry(attempt, delayMs, reason) {
      resends = attempt + 1;
      const event = { "http.request.resend_count": resends, "error.type": reason };
      guard(() =>
        span.addEvent("retry", { ...event, "merchant_payments.retry.delay_ms": Math.round(delayMs) }),
      );
    },
  };
  const end = (outcome: Outcome) => {
    const seconds = (performance.now() - startedAt) / 1000;
    guard(() => endCall(api, span, duration, attributes, { ...outcome, resends, seconds }));
  };
  let answer: Promise<CallResult<T>> | undefined;
  // The work returns nothing: the guard must not read the call's own rejection as a failure of the telemetry.
  guard(() => {
    api.context.with(started.context, () => {
      answer = send(trace);
    });
  });
  try {
    const result = await (answer ?? send(trace));
    end({ status: result.status, requestId: result.requestId, errorType: undefined });
    return result;
  } catch (error) {
    end(failureOf(error));
    throw error;
  }
}

/** How a call ended, as its span and its duration record it. */
interface Outcome {
  status: number | undefined;
  requestId: string | undefined;
  errorType: string | undefined;
}

function endCall(
  api: typeof Otel,
  span: Otel.Span,
  duration: Otel.Histogram,
  attributes: Otel.Attributes,
  outcome: Outcome & { resends: number; seconds: number },
): void {
  const metric: Otel.Attributes = { ...attributes };
  if (outcome.status !== undefined) metric["http.response.status_code"] = outcome.status;
  if (outcome.errorType !== undefined) metric["error.type"] = outcome.errorType;
  span.setAttributes(metric);
  if (outcome.requestId !== undefined) span.setAttribute("merchant_payments.request_id", outcome.requestId);
  if (outcome.resends > 0) span.setAttribute("http.request.resend_count", outcome.resends);
  // The error's message stays out: the error type says what failed, and nothing of the answer's text is copied.
  if (outcome.errorType !== undefined) span.setStatus({ code: api.SpanStatusCode.ERROR });
  span.end();
  duration.record(outcome.seconds, metric);
}

/**
 * A failed call's status, request id and `error.type`: the status code for an HTTP error answer (as the conventions
 * ask), else the SDK error's class name (`TimeoutError`, `ConnectionError`, `ResponseValidationError`…).
 */
function failureOf(error: unknown): Outcome {
  const fields = (typeof error === "object" && error !== null ? error : {}) as {
    status?: unknown;
    requestId?: unknown;
    name?: unknown;
  };
  const status = typeof fields.status === "number" ? fields.status : undefined;
  const requestId = typeof fields.requestId === "string" ? fields.requestId : undefined;
  const name = error instanceof Error && typeof fields.name === "string" ? fields.name : "_OTHER";
  return { status, requestId, errorType: status !== undefined && status >= 400 ? String(status) : name };
}
