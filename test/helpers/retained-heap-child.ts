/**
 * Run by `test/model/bounded-copies.test.ts` as `node --expose-gc --import tsx <this file> <scenario> <count>`: does
 * what a long-running process does `count` times with a distinct 1 MB body each time, keeps what that leaves, and
 * prints the memory it still holds after a full collection, as JSON `{ retainedBytes, bodyBytes }`.
 *
 * - `errors`: a client call answered 502 with a 1 MB HTML page (not the service's error shape); the `APIError`s are
 *   kept, as an application that collects failures for a report would.
 * - `mock-log`: an unauthenticated 1 MB POST to the mock (answered 401); the mock's request log keeps it.
 */
import { MerchantPaymentsClient } from "../../src/index.js";
import { createMockService } from "../../src/testing/index.js";

const BODY_CHARS = 1024 * 1024;
const [scenario = "", countText = "0"] = process.argv.slice(2);
const count = Number(countText);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !Number.isInteger(count) || count <= 0)
  throw new Error("usage: node --expose-gc <child> <scenario> <count>");

/**
 * What the process holds: the V8 heap and the memory V8 holds outside it (Node hands a large decoded body to V8 as an
 * external string, counted in `external`, not in `heapUsed`).
 */
function held(): number {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** A distinct one-byte body of 1 M characters (distinct: a shared string would be counted once). */
const bigBody = (i: number): string => `<html>${i} `.padEnd(BODY_CHARS, "x");

async function keptErrors(): Promise<() => Promise<unknown>> {
  let calls = 0;
  const client = new MerchantPaymentsClient({
    apiKey: "sk_test_retained_heap_0123456789",
    baseUrl: "https://api.example.test",
    maxRetries: 0,
    fetch: async () =>
      new Response(bigBody(calls++), { status: 502, headers: { "Content-Type": "text/html" } }),
  });
  return () => client.merchants.list().catch((err: unknown) => err);
}

async function mockLog(): Promise<() => Promise<unknown>> {
  const mock = createMockService();
  let calls = 0;
  return async () => {
    const res = await mock.fetch(`${mock.baseUrl}/v1/payments`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: bigBody(calls++),
    });
    if (res.status !== 401) throw new Error(`expected 401, got ${res.status}`);
    return res.text();
  };
}

const once =
  scenario === "errors" ? await keptErrors() : scenario === "mock-log" ? await mockLog() : undefined;
if (!once) throw new Error(`unknown scenario ${scenario}`);
/** Full collections until nothing more is freed (streams and their buffers are let go of a tick later), at most 10. */
async function settled(): Promise<number> {
  let last = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 10; round++) {
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
    const now = held();
    if (now >= last) return now;
    last = now;
  }
  return last;
}

const kept: unknown[] = [await once()];
const before = await settled();
for (let i = 0; i < count; i++) kept.push(await once());
const retainedBytes = (await settled()) - before;
process.stdout.write(JSON.stringify({ retainedBytes, bodyBytes: count * BODY_CHARS, kept: kept.length }));
