import { NotFoundError } from "merchant-payments";
import { createMockService } from "merchant-payments/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { mapWithConcurrency, settlePending } from "../../examples/worker.js";
import { testClient } from "../helpers/clients.js";
import { onFakeTime, settlesWithinTurns, trackCalls, waitUntil } from "../helpers/time.js";

const mock = createMockService({ pollInMs: 10 });

/** Which payments are being polled: from their first status request until a final status came back. */
const polling = new Set<string>();
let maxInFlight = 0;
const polls = new Map<string, number>();
/** Payments the mock completes on their second status poll. */
const completeOnSecondPoll = new Set<string>();

const STATUS_PATH = /^\/v1\/payments\/([^/]+)\/status$/;
const trackingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const id = STATUS_PATH.exec(new URL(request.url).pathname)?.[1];
  if (!id) return mock.fetch(request);
  polling.add(id);
  maxInFlight = Math.max(maxInFlight, polling.size);
  const count = (polls.get(id) ?? 0) + 1;
  polls.set(id, count);
  if (count === 2 && completeOnSecondPoll.has(id)) mock.completePayment(id);
  const response = await mock.fetch(request);
  if (((await response.clone().json()) as { isFinal?: boolean }).isFinal) polling.delete(id);
  return response;
};

const client = testClient(mock, { fetch: trackingFetch });
const FAST = { minIntervalMs: 5, maxIntervalMs: 20 };

async function createPayments(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const payment = await client.payments.create({
      referenceId: `order-${i}`,
      amount: { unit: "iso4217/USD", value: "100" },
    });
    ids.push(payment.id);
  }
  return ids;
}

beforeEach(() => {
  mock.reset();
  polling.clear();
  polls.clear();
  completeOnSecondPoll.clear();
  maxInFlight = 0;
});

describe("examples/worker settlePending", () => {
  it("settles 5 payments completed by the mock, never more than 2 in flight", async () => {
    const ids = await createPayments(5);
    for (const id of ids) completeOnSecondPoll.add(id);
    const seen: string[] = [];

    const results = await settlePending(client, ids, {
      concurrency: 2,
      poll: FAST,
      onFinal: (id) => void seen.push(id),
    });

    expect(results.map((r) => [r.paymentId, r.outcome])).toEqual(ids.map((id) => [id, "final"]));
    for (const result of results) {
      expect(result.outcome === "final" && result.status).toMatchObject({
        status: "succeeded",
        isFinal: true,
      });
    }
    expect(mock.payments.map((p) => p.status)).toEqual(Array(5).fill("succeeded"));
    expect(maxInFlight).toBe(2);
    expect(polling.size).toBe(0);
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it("stops on abort: in-flight polls end at once and the rest never start", async () => {
    const ids = await createPayments(5); // never completed
    const shutdown = new AbortController();
    const run = settlePending(client, ids, { concurrency: 2, signal: shutdown.signal, poll: FAST });
    await waitUntil(() => polls.size >= 2, "two payments polled");
    shutdown.abort();

    // At once: within a few event-loop turns, not after the next poll interval.
    expect(await settlesWithinTurns(run)).toBe(true);
    const results = await run;
    expect(results.map((r) => r.outcome)).toEqual(Array(5).fill("aborted"));
    expect([...polls.keys()].sort()).toEqual(ids.slice(0, 2).sort());
    expect(mock.payments.map((p) => p.status)).toEqual(Array(5).fill("requires_action"));
  });

  it("reports a poll deadline and an unknown payment without failing the others", async () => {
    const [pending, paid] = await createPayments(2);
    mock.completePayment(paid!);
    // Fake time: the 100 ms deadline passes after the polls that fit in it, however slow the machine is.
    trackCalls(client.payments, "status");
    const results = await onFakeTime(() =>
      settlePending(client, [pending!, "pay_unknown", paid!], {
        concurrency: 3,
        poll: { ...FAST, maxWaitMs: 100 },
      }),
    );
    expect(results[0]).toEqual({ paymentId: pending, outcome: "timeout", lastStatus: "requires_action" });
    expect(results[1]).toMatchObject({ paymentId: "pay_unknown", outcome: "error" });
    expect(results[1]?.outcome === "error" && results[1].error).toBeInstanceOf(NotFoundError);
    expect(results[2]).toMatchObject({ paymentId: paid, outcome: "final", status: { status: "succeeded" } });
  });
});

describe("examples/worker mapWithConcurrency", () => {
  it("keeps order and the limit, and refuses a bad limit", async () => {
    let active = 0;
    let peak = 0;
    const out = await mapWithConcurrency([30, 10, 20, 5, 1], 3, undefined, async (ms, i) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, ms));
      active--;
      return i;
    });
    expect(out).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(3);
    await expect(mapWithConcurrency([1], 0, undefined, async () => 1)).rejects.toBeInstanceOf(RangeError);
  });
});
