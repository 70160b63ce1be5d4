/**
 * Telemetry is an observer (issue 25 item 2): whatever the OpenTelemetry side does (a span processor that throws, a
 * tracer provider that fails, a histogram that throws), a call sends, returns and throws what it would untraced.
 * The failure is reported once through the client's logger, and the client's later calls go on untraced.
 */
import type { Context, Span } from "@opentelemetry/api";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type MerchantPaymentsClient, NotFoundError, type TelemetryOptions } from "../../src/index.js";
import { createMockService } from "../../src/testing/msw.js";
import { useMswServer } from "../helpers/msw.js";
import { flushRejections, trackUnhandledRejections } from "../helpers/outcomes.js";
import { clientWithWarnings } from "../helpers/warnings.js";

const service = createMockService();
useMswServer(...service.handlers);
const rejections = trackUnhandledRejections();
afterEach(async () => {
  await flushRejections();
  expect(rejections.seen).toEqual([]);
});

const AMOUNT = { unit: "iso4217/USD", value: "1999" } as const;
const payments = () => service.requests.filter((r) => r.method === "POST" && r.path === "/v1/payments");

/** A traced client of the mock with a logger that keeps its warnings. */
const traced = (telemetry: TelemetryOptions) => clientWithWarnings(service, { telemetry });
const create = (client: MerchantPaymentsClient) =>
  client.payments.create({ referenceId: `order-${Math.random()}`, amount: AMOUNT });

/** A span processor whose `onEnd` throws, as an exporter with a bug would make it. */
function throwingProcessor(): SpanProcessor & { ended: number } {
  return {
    ended: 0,
    onStart(_span: Span, _context: Context) {},
    onEnd(_span: ReadableSpan) {
      this.ended++;
      throw new Error("exporter crashed");
    },
    forceFlush: async () => {},
    shutdown: async () => {},
  };
}

describe("a failing telemetry never changes a call", () => {
  it("a span processor whose onEnd throws: the created payment is returned, sent once; reported once, then untraced", async () => {
    const processor = throwingProcessor();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [processor] });
    const { client, warnings } = traced({ tracerProvider });
    const before = payments().length;
    const first = await create(client);
    expect(first.id).toMatch(/^pay_/);
    expect(payments().length - before).toBe(1);
    // Telemetry is off for this client now: the next call is not traced, and succeeds too.
    const second = await create(client);
    expect(second.id).not.toBe(first.id);
    expect(processor.ended).toBe(1);
    expect(warnings).toEqual([
      expect.stringMatching(/telemetry is turned off for this client: it threw Error: exporter crashed/),
    ]);
  });

  it("an error answer is still the SDK's own typed error when the span cannot end", async () => {
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [throwingProcessor()] });
    const { client } = traced({ tracerProvider });
    await expect(client.payments.status("pay_missing")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("a getTracer that throws once: that call and every later one succeed, untraced, reported once", async () => {
    const spans = new InMemorySpanExporter();
    const real = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    const getTracer = vi
      .fn((name: string, version?: string) => real.getTracer(name, version))
      .mockImplementationOnce(() => {
        throw new Error("provider not ready");
      });
    const { client, warnings } = traced({ tracerProvider: { getTracer } });
    const id = (await create(client)).id;
    expect((await client.payments.status(id)).status).toBe("requires_action");
    expect((await client.payments.status(id)).status).toBe("requires_action");
    expect(warnings).toEqual([expect.stringMatching(/telemetry is turned off .* provider not ready/)]);
    expect(spans.getFinishedSpans()).toEqual([]);
  });

  it("a histogram that throws on record leaves the call's result as it was", async () => {
    const meterProvider = new MeterProvider();
    const meter = meterProvider.getMeter("x");
    const histogram = meter.createHistogram("h");
    vi.spyOn(histogram, "record").mockImplementation(() => {
      throw new Error("metrics pipeline full");
    });
    const broken = { getMeter: () => ({ ...meter, createHistogram: () => histogram }) };
    const { client, warnings } = traced({ meterProvider: broken });
    const id = (await create(client)).id;
    expect(id).toMatch(/^pay_/);
    expect(warnings).toEqual([expect.stringMatching(/telemetry is turned off .* metrics pipeline full/)]);
  });
});
