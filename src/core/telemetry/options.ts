/**
 * How a client turns OpenTelemetry on: the option's shape and its check. Nothing here loads `@opentelemetry/api`; the
 * provider types are structural, so the SDK's types do not need the package either.
 *
 * @module
 */

/**
 * A tracer provider, such as `trace.getTracerProvider()` from `@opentelemetry/api` or an SDK's
 * `BasicTracerProvider`/`NodeTracerProvider`. Only `getTracer` is used.
 */
export interface TracerProviderLike {
  /** Returns the tracer the SDK records its spans with (OpenTelemetry's `TracerProvider.getTracer`). */
  getTracer(name: string, version?: string): unknown;
}

/** A meter provider, such as `metrics.getMeterProvider()` from `@opentelemetry/api` or an SDK's `MeterProvider`. */
export interface MeterProviderLike {
  /** Returns the meter the SDK records its histogram with (OpenTelemetry's `MeterProvider.getMeter`). */
  getMeter(name: string, version?: string): unknown;
}

/**
 * Where the SDK's spans and metrics go. A provider left out is the global one of `@opentelemetry/api` (a no-op until
 * an OpenTelemetry SDK registers one), so `{}` (or `true`) means "the global providers".
 */
export interface TelemetryOptions {
  /** Records one client span per call. Default: the global tracer provider. */
  tracerProvider?: TracerProviderLike | undefined;
  /** Records the `http.client.request.duration` histogram. Default: the global meter provider. */
  meterProvider?: MeterProviderLike | undefined;
}

/** The `telemetry` client option: `true` or an object turns it on, `false` (the default) leaves it off. */
export type TelemetryOption = boolean | TelemetryOptions;

const PARTS: Record<keyof TelemetryOptions, string> = {
  tracerProvider: "getTracer",
  meterProvider: "getMeter",
};

/** What is wrong with a `telemetry` option, or `undefined`. Describes a wrong value by its type, never its text. */
export function telemetryProblem(value: unknown): string | undefined {
  if (typeof value === "boolean") return undefined;
  const advice = "must be true, false or { tracerProvider?, meterProvider? }";
  if (typeof value !== "object" || value === null || Array.isArray(value)) return advice;
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(PARTS, name)) return `${advice}: ${quoteName(name)} is not one of them`;
  }
  for (const [part, method] of Object.entries(PARTS)) {
    const provider: unknown = (value as Record<string, unknown>)[part];
    if (provider === undefined) continue;
    if (typeof (provider as Record<string, unknown> | null)?.[method] !== "function") {
      return `${advice}: ${part} must be an OpenTelemetry ${part.replace("Provider", "")} provider (with ${method}())`;
    }
  }
  return undefined;
}

/** A misspelt part's name, quoted only when it is short and plain (a pasted key is neither). */
function quoteName(name: string): string {
  return /^[A-Za-z]{1,30}$/.test(name) ? name : "a part";
}

/** The providers to use, or `undefined` when telemetry is off. */
export function telemetryProviders(option: TelemetryOption | undefined): TelemetryOptions | undefined {
  if (option === undefined || option === false) return undefined;
  return option === true ? {} : option;
}
