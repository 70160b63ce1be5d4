/**
 * The SDK's one way to write to the user's logger. Every log line passes here, so the level filter and the call
 * shape that console, pino and winston all render live in one place.
 *
 * CONTRACT: `log(config, level, message, fields)`; `fields` never hold a header or a credential.
 *
 * @module
 */
import type { ResolvedConfig } from "./config.js";

/** Levels the SDK writes at. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Writes one line to the configured logger, if any. A logger that throws never changes a call's outcome. */
export function log(
  config: Pick<ResolvedConfig, "logger">,
  level: LogLevel,
  message: string,
  fields: Record<string, unknown>,
): void {
  const write = config.logger?.[level === "info" || level === "error" ? "warn" : level];
  if (!write) return;
  try {
    write.call(config.logger, `merchant-payments: ${message}`, fields);
  } catch {
    // A failing logger must not fail the payment call it describes.
  }
}
