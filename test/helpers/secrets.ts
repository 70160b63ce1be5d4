/** The API key the tests that look for leaks use, and the checks that it never shows in what the SDK gives out. */
import { inspect } from "node:util";
import { expect } from "vitest";

/** The API key the leak-checking tests use. It must never show anywhere but in the Api-Key header. */
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
