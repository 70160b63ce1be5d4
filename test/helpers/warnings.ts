/** A client of a mock whose logger keeps the warnings it gets: for the tests of what the SDK reports. */
import type { ClientOptions, LogRecord, MerchantPaymentsClient } from "../../src/index.js";
import { type MockTarget, testClient } from "./clients.js";

/** `testClient(mock, options)` with a logger that keeps each warning's message in `warnings`. */
export function clientWithWarnings(
  mock: MockTarget,
  options: ClientOptions = {},
): { client: MerchantPaymentsClient; warnings: string[] } {
  const warnings: string[] = [];
  const logger = { warn: (record: LogRecord) => warnings.push(record.message) };
  return { client: testClient(mock, { logger, ...options }), warnings };
}
