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

/** The providers to use, or `undefined` when telemetry is off. */
export function telemetryProviders(option: TelemetryOption | undefined): TelemetryOptions | undefined {
  if (option === undefined || option === false) return undefined;
  return option === true ? {} : option;
}
