/**
 * The SDK's one way to write to the user's logger. Every log line passes here, so the level filter and the call
 * shape that console, pino and winston all render live in one place.
 *
 * CONTRACT: `log(config, observers, level, message, fields)`; `fields` never hold a header or a credential, nor a
 * field named `message` (the line's own).
 *
 * @module
 */
import type { ResolvedConfig } from "./config.js";
import type { Observers } from "./observers.js";
import type { LogLevel, LogRecord } from "./options.js";

/** Levels the SDK writes at: every {@link LogLevel} but `"off"`. */
export type LineLevel = Exclude<LogLevel, "off">;

/** Severity order: a line is written when its rank reaches the configured level's. */
const RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

/**
 * Writes one line to the configured logger when its level is at or above `config.logLevel`. The logger gets one
 * object, `{ message, ...fields }`: pino and winston log its properties as structured fields (pino's `(msg, obj)`
 * order would drop them), and `console` prints it whole. The logger is an observer: a logger that throws never
 * changes a call's outcome, and is turned off for the client (`observers`).
 */
export function log(
  config: Pick<ResolvedConfig, "logger" | "logLevel">,
  observers: Observers,
  level: LineLevel,
  message: string,
  fields: Record<string, unknown>,
): void {
  const { logger } = config;
  if (logger === undefined || RANK[level] < RANK[config.logLevel]) return;
  const record: LogRecord = { message: `merchant-payments: ${message}`, ...fields };
  // Reading the method is the logger's code too (a getter, a proxy): inside the guard.
  observers.run(logger, "the logger", () => {
    const write = logger[level];
    if (typeof write === "function") write.call(logger, record);
  });
}
