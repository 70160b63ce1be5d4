/**
 * Load (a small, deterministic version of the benchmark): 1,000 payments watched concurrently by one client
 * against the mock server on 127.0.0.1 (a real socket pool; msw 3's mocked sockets keep what passed through them,
 * which would be counted as ours), every one reaching its final state at a planned poll; afterwards no
 * timer is left, no listener is left on any caller's AbortSignal, nothing of a watcher is retained (its callbacks
 * are garbage-collected), and the heap is back near where it started.
 */
import { getEventListeners } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, expect, it } from "vitest";
import { startMockServer } from "../../src/testing/index.js";
import { testClient } from "../helpers/clients.js";
import { activeTimers, flushRejections, trackUnhandledRejections } from "../helpers/outcomes.js";

const WATCHERS = 1_000;
const WARM_UP = 200;
const server = await startMockServer({ pollInMs: 5, requestLogLimit: 100 });
const { service } = server;
const rejections = trackUnhandledRejections();

afterAll(async () => {
  await server.close();
  await flushRejections();
  rejections.stop();
});

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

async function collectedHeap(): Promise<number> {
  // WeakRef targets stay alive until the current job ends: let it end before collecting.
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc();
  return process.memoryUsage().heapUsed;
}

const OUTCOMES = [
  { status: "succeeded", drive: (id: string) => service.completePayment(id) },
  { status: "failed", drive: (id: string) => service.failPayment(id) },
  { status: "expired", drive: (id: string) => service.expirePayment(id) },
  { status: "cancelled", drive: (id: string) => service.cancelPayment(id) },
] as const;

/** Polls seen per payment, and the poll at which each payment is driven to its outcome. */
const polls = new Map<string, number>();
const plan = new Map<string, { at: number; drive: (id: string) => unknown }>();

const client = testClient(service, {
  retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 20 },
  hooks: {
    onRequest: ({ path }) => {
      const match = /^\/v1\/payments\/([^/]+)\/status$/.exec(path);
      if (!match) return;
      const id = decodeURIComponent(match[1]!);
      const n = (polls.get(id) ?? 0) + 1;
      polls.set(id, n);
      const step = plan.get(id);
      if (step && n === step.at) step.drive(id);
    },
  },
});

interface RoundReport {
  statuses: string[];
  expected: string[];
  pollCounts: number[];
  expectedPolls: number[];
  updates: number;
  expectedUpdates: number;
  listenersLeft: number;
  /** WeakRefs to each watcher's callback and signal: the SDK must not keep them. */
  refs: WeakRef<object>[];
}

/** Creates `count` payments and watches them all at once. Keeps no strong reference to watcher state. */
async function round(count: number): Promise<RoundReport> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 250) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(250, count - start) }, (_, i) =>
        client.payments.create({
          referenceId: `load-${start + i}`,
          amount: { unit: "iso4217/USD", value: String(100 + start + i) },
        }),
      ),
    );
    ids.push(...batch.map((p) => p.id));
  }
  ids.forEach((id, index) => {
    plan.set(id, { at: (index % 3) + 1, drive: OUTCOMES[index % OUTCOMES.length]!.drive });
  });

  let updates = 0;
  const refs: WeakRef<object>[] = [];
  const controllers = ids.map(() => new AbortController());
  const finals = await Promise.all(
    ids.map((id, index) => {
      const onUpdate = () => {
        updates++;
      };
      refs.push(new WeakRef(onUpdate));
      return client.payments.waitForFinal(id, {
        minIntervalMs: 5,
        timeoutMs: 60_000,
        signal: controllers[index]!.signal,
        onUpdate,
      });
    }),
  );
  const report: RoundReport = {
    statuses: finals.map((f) => (f.isFinal ? f.status : `not final: ${f.status}`)),
    expected: ids.map((_id, index) => OUTCOMES[index % OUTCOMES.length]!.status),
    pollCounts: ids.map((id) => polls.get(id) ?? 0),
    expectedPolls: ids.map((_id, index) => (index % 3) + 1),
    updates,
    // One update for a payment final at its first poll, two (requires_action, then final) for the others.
    expectedUpdates: ids.reduce((sum, _id, index) => sum + (index % 3 === 0 ? 1 : 2), 0),
    listenersLeft: controllers.reduce((sum, c) => sum + getEventListeners(c.signal, "abort").length, 0),
    refs,
  };
  polls.clear();
  plan.clear();
  service.reset();
  return report;
}

it(`watches ${WATCHERS} payments concurrently until every one is final, leaving nothing behind`, async () => {
  await round(WARM_UP); // compiles, fills caches and pools, so that the baselines below are steady
  const timersBefore = activeTimers();
  const heapBefore = await collectedHeap();

  const report = await round(WATCHERS);
  expect(report.statuses).toEqual(report.expected);
  expect(report.pollCounts).toEqual(report.expectedPolls);
  expect(report.updates).toBe(report.expectedUpdates);
  expect(report.listenersLeft).toBe(0);
  expect(activeTimers()).toBeLessThanOrEqual(timersBefore);

  const heapAfter = await collectedHeap();
  const retained = report.refs.filter((ref) => ref.deref() !== undefined).length;
  expect(retained, "watcher callbacks still reachable after the watch ended").toBe(0);
  expect(heapAfter - heapBefore).toBeLessThan(8 * 1024 * 1024);
  expect(rejections.seen).toEqual([]);
}, 60_000);
