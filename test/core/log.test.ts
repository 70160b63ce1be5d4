import { Writable } from "node:stream";
import { format } from "node:util";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import winston from "winston";
import type { ClientOptions, Logger } from "../../src/index.js";
import { FAST_RETRY, testClient } from "../helpers/clients.js";
import { apiError, json, TEST_KEY, useRecordingServer } from "../helpers/recording-server.js";
import { waitUntil } from "../helpers/time.js";

const mock = useRecordingServer();
const PROCESSING = { status: "processing", isFinal: false, pollInMs: 5 };

afterEach(() => {
  vi.restoreAllMocks();
});

/** A stream that keeps every chunk written to it, as text. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

/** The JSON lines a logger wrote, parsed. */
function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** One answered attempt (debug) and one retry (warn): a 503, then a status. */
async function callWithOneRetry(options: ClientOptions): Promise<void> {
  mock.respond(apiError(503, "unavailable"), json(PROCESSING));
  const client = testClient({ merchantId: "mrch_1", retry: FAST_RETRY, ...options });
  await client.payments.status("pay_1");
}

/** The lines about the call, with the fields other than the logger's own. */
function sdkLines(lines: Array<Record<string, unknown>>) {
  return lines.filter((line) => String(line.message).includes("/v1/payments/pay_1/status"));
}

/** True when a line carries a numeric field besides its message (attempt, duration): its fields were kept. */
function hasNumericField(line: Record<string, unknown>): boolean {
  const own = new Set(["level", "time", "pid", "message", "msg", "timestamp"]);
  return Object.entries(line).some(([key, value]) => !own.has(key) && typeof value === "number");
}

describe("pino renders the SDK's lines with their fields", () => {
  it("writes each field as a JSON property, at the level asked", async () => {
    const out = collector();
    const logger = pino({ level: "debug" }, out.stream);
    await callWithOneRetry({ logger, logLevel: "debug" });
    const lines = sdkLines(jsonLines(out.text()));
    const levels = lines.map((line) => line.level);
    expect(levels).toContain(pino.levels.values.debug);
    expect(levels).toContain(pino.levels.values.warn);
    expect(lines.every(hasNumericField)).toBe(true);
    expect(out.text()).not.toContain(TEST_KEY);
  });

  it('takes the SDK\'s message as its own with messageKey: "message"', async () => {
    const out = collector();
    await callWithOneRetry({ logger: pino({ messageKey: "message" }, out.stream) });
    const [line] = sdkLines(jsonLines(out.text()));
    expect(line?.message).toMatch(/^merchant-payments: /);
  });
});

describe("winston renders the SDK's lines with their fields", () => {
  function winstonTo(stream: Writable, fmt = winston.format.json()) {
    return winston.createLogger({
      level: "debug",
      format: fmt,
      transports: [new winston.transports.Stream({ stream })],
    });
  }

  it("keeps the message as winston's message and the fields as its meta (json format)", async () => {
    const out = collector();
    await callWithOneRetry({ logger: winstonTo(out.stream), logLevel: "debug" });
    await waitUntil(() => sdkLines(jsonLines(out.text())).length >= 3, "three log lines");
    const lines = sdkLines(jsonLines(out.text()));
    expect(lines.map((line) => line.level)).toEqual(expect.arrayContaining(["debug", "warn"]));
    expect(lines.every(hasNumericField)).toBe(true);
    expect(out.text()).not.toContain(TEST_KEY);
  });

  it("prints message and fields with the simple format", async () => {
    const out = collector();
    await callWithOneRetry({ logger: winstonTo(out.stream, winston.format.simple()) });
    await waitUntil(() => out.text().includes("warn: merchant-payments: "), "the warning line");
    expect(out.text()).not.toContain("[object Object]");
    expect(out.text()).toMatch(/warn: merchant-payments: .*\{.*"attempt":1/);
  });
});

describe("console renders the SDK's lines with their fields", () => {
  it("prints each line with its fields", async () => {
    const printed: string[] = [];
    const print = (...args: unknown[]) => {
      printed.push(format(...args));
    };
    vi.spyOn(console, "debug").mockImplementation(print);
    vi.spyOn(console, "warn").mockImplementation(print);
    await callWithOneRetry({ logger: console, logLevel: "debug" });
    const lines = printed.filter((line) => line.includes("/v1/payments/pay_1/status"));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(line).toMatch(/attempt: \d/);
    expect(printed.join("\n")).not.toContain(TEST_KEY);
  });
});

describe("logLevel and MERCHANT_PAYMENTS_LOG", () => {
  /** A logger that keeps the level of each SDK line. */
  function recordingLogger(): { logger: Logger; levels: string[] } {
    const levels: string[] = [];
    const at = (level: string) => () => {
      levels.push(level);
    };
    return {
      levels,
      logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") },
    };
  }

  it("writes warnings and above by default when a logger is given", async () => {
    const { logger, levels } = recordingLogger();
    await callWithOneRetry({ logger });
    expect(levels).toContain("warn");
    expect(levels).not.toContain("debug");
  });

  it.each([
    ["debug", ["debug", "warn"]],
    ["warn", ["warn"]],
    ["error", []],
    ["off", []],
  ] as const)("logLevel %s writes %j", async (logLevel, expected) => {
    const { logger, levels } = recordingLogger();
    await callWithOneRetry({ logger, logLevel });
    expect([...new Set(levels)].sort()).toEqual([...expected].sort());
  });

  it("MERCHANT_PAYMENTS_LOG=debug turns logging on, to console when no logger is given", async () => {
    vi.stubEnv("MERCHANT_PAYMENTS_LOG", "debug");
    const debug = vi.spyOn(console, "debug").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await callWithOneRetry({});
    expect(debug).toHaveBeenCalled();
  });

  it("logs nothing with no logger and no level", async () => {
    const debug = vi.spyOn(console, "debug").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await callWithOneRetry({});
    expect(debug).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });

  it("the logLevel option wins over the environment", async () => {
    vi.stubEnv("MERCHANT_PAYMENTS_LOG", "debug");
    const { logger, levels } = recordingLogger();
    await callWithOneRetry({ logger, logLevel: "off" });
    expect(levels).toEqual([]);
  });

  it("a logger that throws, or lacks a level, leaves the call's outcome alone", async () => {
    const throwing: Logger = {
      warn: () => {
        throw new Error("logger down");
      },
    };
    await expect(callWithOneRetry({ logger: throwing, logLevel: "debug" })).resolves.toBeUndefined();
    expect(mock.requests).toHaveLength(2);
  });
});
