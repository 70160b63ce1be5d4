/**
 * OpenTelemetry for the calls of one client: one CLIENT span per call (its retries as span events) and the
 * `http.client.request.duration` histogram, named by the semantic conventions for HTTP clients. `@opentelemetry/api`
 * is an optional peer: it is imported with the first traced call, and only by a client whose `telemetry` option is
 * on. A client without telemetry never reaches this module's code.
 *
 * What is recorded is low-cardinality and secret-free by construction: the method, the route template (never the path
 * with its ids, nor the query), the server's host and port, the status, an error type, the request id on the span.
 * Never a header value, so never the API key.
 *
 * @module
 */
import type * as Otel from "@opentelemetry/api";
import { ConfigurationError } from "../../errors.js";
import { SDK_VERSION } from "../../version.js";
import type { CallResult } from "../api-promise.js";
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

/** Creates the telemetry of a client whose `telemetry` option is on. Nothing is loaded until its first call. */
export function createTelemetry(providers: TelemetryOptions, baseUrl: string): Telemetry {
  const url = new URL(baseUrl);
  const server: Otel.Attributes = {
    "server.address": url.hostname.replace(/^\[(.*)\]$/, "$1"),
    "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)),
  };
  let instruments: Promise<Instruments> | undefined;
  return {
    async traced(call, template, send) {
      instruments ??= loadInstruments(providers);
      return tracedCall(await instruments, server, { ...call, template }, send);
    },
  };
}

async function loadInstruments(providers: TelemetryOptions): Promise<Instruments> {
  let api: typeof Otel;
  try {
    // Awaited inside a try, which esbuild reads as optional; webpack and Turbopack (Next.js) are told to leave it to
    // run time: an app without the optional peer bundles, and only a client with `telemetry` on needs it.
    api = await import(/* webpackIgnore: true */ /* @vite-ignore */ "@opentelemetry/api");
  } catch (cause) {
    throw new ConfigurationError(
      "The telemetry option needs the @opentelemetry/api package: install it (npm install @opentelemetry/api).",
      { cause },
    );
  }
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

/** One call in its span: the span is the active one while the attempts run, so lower-level spans nest under it. */
async function tracedCall<T>(
  { api, tracer, duration }: Instruments,
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
  const parent = api.context.active();
  const span = tracer.startSpan(
    `${call.method} ${template}`,
    { kind: api.SpanKind.CLIENT, attributes },
    parent,
  );
  const started = performance.now();
  let resends = 0;
  const trace: CallTrace = {
    retry(attempt, delayMs, reason) {
      resends = attempt + 1;
      span.addEvent("retry", {
        "http.request.resend_count": resends,
        "error.type": reason,
        "merchant_payments.retry.delay_ms": Math.round(delayMs),
      });
    },
  };
  const end = (outcome: Outcome) => {
    const seconds = (performance.now() - started) / 1000;
    endCall(api, span, duration, attributes, { ...outcome, resends, seconds });
  };
  try {
    const answer = await api.context.with(api.trace.setSpan(parent, span), send, undefined, trace);
    end({ status: answer.status, requestId: answer.requestId, errorType: undefined });
    return answer;
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
