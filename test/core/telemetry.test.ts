/**
 * Issue 19 item 6: OpenTelemetry through the optional peer `@opentelemetry/api`. One CLIENT span per call, its
 * retries as span events, attributes named by the semantic conventions for HTTP clients, the duration histogram,
 * never the API key; and nothing at all (no import, no provider touched) for a client without `telemetry`.
 */
import { metrics, SpanKind, SpanStatusCode, type TracerProvider, trace } from "@opentelemetry/api";
import {
  AggregationTemporality,
  DataPointType,
  type HistogramMetricData,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { build } from "esbuild";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type ClientOptions,
  ConfigurationError,
  MerchantPaymentsClient,
  NotFoundError,
} from "../../src/index.js";
import { createMockService } from "../../src/testing/msw.js";
import { FAIL_ON_UNHANDLED } from "../helpers/msw.js";

const service = createMockService();
const msw = setupServer(...service.handlers);
beforeAll(() => msw.listen(FAIL_ON_UNHANDLED));
afterAll(() => msw.close());

const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
const reader = new PeriodicExportingMetricReader({
  exporter: metricExporter,
  exportIntervalMillis: 3_600_000,
});
const meterProvider = new MeterProvider({ readers: [reader] });
afterEach(async () => {
  spans.reset();
  await reader.forceFlush();
  metricExporter.reset();
  service.clearFaults();
});
afterAll(() => Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]));

const host = new URL(service.baseUrl);
const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 2 };
const traced = (options: ClientOptions = {}) =>
  new MerchantPaymentsClient({
    apiKey: service.keys.test,
    baseUrl: service.baseUrl,
    merchantId: service.merchantId,
    retry: FAST_RETRY,
    telemetry: { tracerProvider, meterProvider },
    ...options,
  });
const AMOUNT = { unit: "iso4217/USD", value: "1999" } as const;

async function newPaymentId(): Promise<string> {
  const { id } = await traced({ telemetry: false }).payments.create({
    referenceId: "order-1",
    amount: AMOUNT,
  });
  return id;
}

function onlySpan(): ReadableSpan {
  const finished = spans.getFinishedSpans();
  expect(finished).toHaveLength(1);
  return finished[0] as ReadableSpan;
}

/** The histogram's data points, flushed from the metrics SDK's in-memory exporter. */
async function durationPoints() {
  await reader.forceFlush();
  const points = metricExporter
    .getMetrics()
    .flatMap((resource) => resource.scopeMetrics)
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === "http.client.request.duration") as HistogramMetricData[];
  for (const metric of points) {
    expect(metric.descriptor.unit).toBe("s");
    expect(metric.dataPointType).toBe(DataPointType.HISTOGRAM);
  }
  return points.flatMap((metric) => metric.dataPoints);
}

describe("spans", () => {
  it("records one CLIENT span per call, named by its route template, with the HTTP client attributes", async () => {
    const id = await newPaymentId();
    const status = await traced().payments.status(id).withResponse();
    const span = onlySpan();
    expect(span.name).toBe("GET /v1/payments/{paymentId}/status");
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.instrumentationScope.name).toBe("merchant-payments");
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toEqual({
      "http.request.method": "GET",
      "url.template": "/v1/payments/{paymentId}/status",
      "server.address": host.hostname,
      "server.port": Number(host.port || (host.protocol === "https:" ? 443 : 80)),
      "http.response.status_code": 200,
      "merchant_payments.request_id": status.response.requestId,
    });
    expect(status.response.requestId).toEqual(expect.any(String));
    expect(JSON.stringify(span.attributes)).not.toContain(id);
  });

  it("names every operation by its template: a POST, and a path with two ids", async () => {
    const client = traced();
    await client.payments.create({ referenceId: "order-2", amount: AMOUNT });
    await client.settlements.list(service.merchantId);
    const names = spans.getFinishedSpans().map((span) => [span.name, span.attributes["url.template"]]);
    expect(names).toEqual([
      ["POST /v1/payments", "/v1/payments"],
      ["GET /v1/merchants/{merchantId}/settlements", "/v1/merchants/{merchantId}/settlements"],
    ]);
    expect(spans.getFinishedSpans()[0]?.attributes["http.response.status_code"]).toBe(201);
  });

  it("records retries as events of the call's one span, and the attempts it took", async () => {
    const id = await newPaymentId();
    service.injectFault({ type: "serverError", status: 503, times: 2, method: "GET" });
    await traced({ maxRetries: 2 }).payments.status(id);
    const span = onlySpan();
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        "retry",
        {
          "http.request.resend_count": 1,
          "error.type": "503",
          "merchant_payments.retry.delay_ms": expect.any(Number),
        },
      ],
      [
        "retry",
        {
          "http.request.resend_count": 2,
          "error.type": "503",
          "merchant_payments.retry.delay_ms": expect.any(Number),
        },
      ],
    ]);
    expect(span.attributes["http.request.resend_count"]).toBe(2);
    expect(span.attributes["http.response.status_code"]).toBe(200);
    expect(span.attributes["error.type"]).toBeUndefined();
  });

  it("sets error.type to the status of an error answer, with the request id, and marks the span as an error", async () => {
    const error = await traced()
      .payments.status("pay_missing")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const span = onlySpan();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes["error.type"]).toBe("404");
    expect(span.attributes["http.response.status_code"]).toBe(404);
    expect(span.attributes["merchant_payments.request_id"]).toBe((error as NotFoundError).requestId);
    expect(span.attributes["url.template"]).toBe("/v1/payments/{paymentId}/status");
  });

  it("sets error.type to the SDK error's name when no answer arrived", async () => {
    service.injectFault({ type: "drop", times: 1 });
    await expect(traced({ maxRetries: 0 }).payments.status("pay_1")).rejects.toThrow();
    const span = onlySpan();
    expect(span.attributes["error.type"]).toBe("ConnectionError");
    expect(span.attributes["http.response.status_code"]).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("never records the API key, a header value or the idempotency key, whatever the outcome", async () => {
    const key = service.keys.test;
    const client = traced({ maxRetries: 1 });
    service.injectFault({ type: "serverError", status: 500, times: 1 });
    await client.merchants.create(
      { name: "Shop", email: "shop@example.com" },
      { idempotencyKey: "idem-secret-1" },
    );
    await client.payments.status("pay_missing").catch(() => undefined);
    const recorded = JSON.stringify([
      spans.getFinishedSpans().map((span) => [span.name, span.attributes, span.events, span.status]),
      await durationPoints(),
    ]);
    expect(spans.getFinishedSpans()).toHaveLength(2);
    for (const secret of [
      key,
      "idem-secret-1",
      service.merchantId,
      "application/json",
      "merchant-payments/",
    ]) {
      expect(recorded).not.toContain(secret);
    }
  });
});

describe("the duration histogram", () => {
  it("records http.client.request.duration in seconds, per call, with the span's low-cardinality attributes", async () => {
    const id = await newPaymentId();
    const client = traced();
    await client.payments.status(id);
    await client.payments.status(id);
    await client.payments.status("pay_missing").catch(() => undefined);
    const points = await durationPoints();
    const byStatus = new Map(points.map((point) => [point.attributes["http.response.status_code"], point]));
    expect(points).toHaveLength(2);
    const ok = byStatus.get(200);
    expect(ok?.attributes).toEqual({
      "http.request.method": "GET",
      "url.template": "/v1/payments/{paymentId}/status",
      "server.address": host.hostname,
      "server.port": Number(host.port || (host.protocol === "https:" ? 443 : 80)),
      "http.response.status_code": 200,
    });
    expect(ok?.value).toMatchObject({ count: 2 });
    expect(byStatus.get(404)?.attributes["error.type"]).toBe("404");
  });
});

describe("turning it on and off", () => {
  it("records nothing and touches no provider for a client without the telemetry option", async () => {
    const spyTracers = vi.fn(() => tracerProvider.getTracer("spy"));
    const spyMeters = vi.fn(() => meterProvider.getMeter("spy"));
    const spyProvider = { getTracer: spyTracers } as unknown as TracerProvider;
    trace.setGlobalTracerProvider(spyProvider);
    metrics.setGlobalMeterProvider({ getMeter: spyMeters });
    try {
      const id = await newPaymentId();
      const plain = new MerchantPaymentsClient({
        apiKey: service.keys.test,
        baseUrl: service.baseUrl,
        merchantId: service.merchantId,
      });
      await plain.payments.status(id);
      expect(spans.getFinishedSpans()).toEqual([]);
      expect(await durationPoints()).toEqual([]);
      expect(spyTracers).not.toHaveBeenCalled();
      expect(spyMeters).not.toHaveBeenCalled();
      // `telemetry: true` is the global providers.
      await new MerchantPaymentsClient({
        apiKey: service.keys.test,
        baseUrl: service.baseUrl,
        merchantId: service.merchantId,
        telemetry: true,
      }).payments.status(id);
      expect(spyTracers.mock.calls.map((call: unknown[]) => call[0])).toEqual(["merchant-payments"]);
      expect(spans.getFinishedSpans().map((span) => span.name)).toEqual([
        "GET /v1/payments/{paymentId}/status",
      ]);
    } finally {
      trace.disable();
      metrics.disable();
    }
  });

  it("never imports @opentelemetry/api with the SDK: only a dynamic import, reached when telemetry is on", async () => {
    const result = await build({
      entryPoints: [new URL("../../src/index.ts", import.meta.url).pathname],
      bundle: true,
      write: false,
      metafile: true,
      format: "esm",
      platform: "node",
      external: ["@opentelemetry/api", "ky", "zod", "zod/*", "uuid"],
      logLevel: "silent",
    });
    const imports = Object.values(result.metafile.inputs).flatMap((input) =>
      input.imports.filter((entry) => entry.path === "@opentelemetry/api").map((entry) => entry.kind),
    );
    expect(imports).toEqual(["dynamic-import"]);
  });

  it("keeps telemetry in clients made with withOptions", async () => {
    await traced()
      .withOptions({ timeoutMs: 5_000 })
      .payments.status("pay_missing")
      .catch(() => undefined);
    expect(onlySpan().attributes["error.type"]).toBe("404");
  });

  it("refuses a telemetry option that is not true, false or providers, without quoting it", () => {
    const make = (telemetry: unknown) => () => traced({ telemetry } as ClientOptions);
    expect(make("yes")).toThrow(ConfigurationError);
    expect(make({ tracerProvider: {} })).toThrow(/tracerProvider must be an OpenTelemetry tracer provider/);
    expect(make({ meterProvider: service.keys.test })).toThrow(/meterProvider/);
    expect(make({ [service.keys.test]: 1 })).toThrow(ConfigurationError);
    for (const value of ["yes", { [service.keys.test]: 1 }, { meterProvider: service.keys.test }]) {
      expect(() => make(value)()).not.toThrow(new RegExp(service.keys.test));
    }
  });
});
