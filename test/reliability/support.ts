/** Shared pieces of the reliability suite: the secret to look for, and the checks that it never leaks. */
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { type MockServer, type MockServerOptions, startMockServer } from "../../src/testing/index.js";

/** The API key every reliability test uses. It must never show anywhere but in the Api-Key header. */
export const SECRET_KEY = "mock_test_sk_R3l1abilitySecret9f2c";
/** The distinctive tail of the key: a partial leak counts too. */
export const SECRET_TAIL = "R3l1abilitySecret9f2c";

/** Every text a value can turn into in a log: inspect (deep, hidden fields), JSON, message, stack, causes. */
export function renderings(value: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = value;
  for (let depth = 0; depth < 10 && current !== undefined && current !== null; depth++) {
    if (seen.has(current)) break;
    seen.add(current);
    out.push(inspect(current, { depth: Number.POSITIVE_INFINITY, showHidden: true, getters: true }));
    out.push(String(safeJson(current)));
    try {
      out.push(String(current));
    } catch {
      // a value without a string form
    }
    if (current instanceof Error) {
      out.push(current.message, current.stack ?? "");
      current = current.cause;
    } else {
      current = undefined;
    }
  }
  return out;
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v));
  } catch (error) {
    return `unserializable: ${String(error)}`;
  }
}

/** Fails when any rendering of `value` holds the API key (or its tail). */
export function expectNoSecret(value: unknown, what = "value"): void {
  for (const text of renderings(value)) {
    expect(text.includes(SECRET_TAIL), `${what} leaks the API key: ${text.slice(0, 400)}`).toBe(false);
  }
}

/** Settles a call, whether it throws synchronously, rejects or resolves. */
export async function settle<T>(
  call: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Collects unhandled rejections of the test file; assert `seen` is empty at the end. */
export function trackUnhandledRejections(): { seen: unknown[]; stop(): void } {
  const seen: unknown[] = [];
  const onRejection = (reason: unknown) => seen.push(reason);
  process.on("unhandledRejection", onRejection);
  return { seen, stop: () => process.off("unhandledRejection", onRejection) };
}

/** Gives pending rejections a chance to be reported. */
export async function flushRejections(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Active timers of the process right now. */
export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;
}

/**
 * The mock service over real HTTP for the calling test file: started before all its tests, reset after each, and
 * closed after all, once the file is checked to have left no unhandled rejection. Returns the running server.
 */
export function useMockServer(options?: MockServerOptions): () => MockServer {
  let server: MockServer | undefined;
  const rejections = trackUnhandledRejections();
  beforeAll(async () => {
    server = await startMockServer(options);
  });
  afterEach(() => server?.service.reset());
  afterAll(async () => {
    await flushRejections();
    rejections.stop();
    expect(rejections.seen).toEqual([]);
    await server?.close();
  });
  return () => {
    if (!server) throw new Error("the mock server runs only while the tests of the file run");
    return server;
  };
}
