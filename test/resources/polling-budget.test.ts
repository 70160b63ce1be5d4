/**
 * Budgets that are counts, not timings: requests per polled payment, and what watchers leave behind.
 * In process: the client's `fetch` is the mock's own, so nothing here depends on sockets.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { createMockService } from "../../src/testing/index.js";
import { testClient } from "../helpers/clients.js";

const POLL_IN_MS = 20;

function setup() {
  const service = createMockService({ pollInMs: POLL_IN_MS, requestLogLimit: 50 });
  const statusRequests = new Map<string, number>();
  const countingFetch: typeof fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const id = /\/v1\/payments\/([^/]+)\/status/.exec(url)?.[1];
    if (id) statusRequests.set(id, (statusRequests.get(id) ?? 0) + 1);
    return service.fetch(input, init);
  };
  const client = testClient(service, { fetch: countingFetch });
  const createPayments = async (n: number) => {
    const created = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        client.payments.create({ referenceId: `order-${i}`, amount: { unit: "iso4217/USD", value: "1999" } }),
      ),
    );
    return created.map((p) => p.id);
  };
  return { service, client, statusRequests, createPayments };
}

/** Active timers and immediates, by type. */
function timers(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of process.getActiveResourcesInfo()) {
    if (name === "Timeout" || name === "Immediate") counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("waitForFinal request budget", () => {
  it("costs at most ⌈elapsed / pollInMs⌉ + 1 status requests per payment, and none after the final status", async () => {
    const { service, client, statusRequests, createPayments } = setup();
    const ids = await createPayments(20);
    const results = await Promise.all(
      ids.map(async (id, i) => {
        const timer = setTimeout(() => service.completePayment(id), (i % 10) * 15);
        const start = performance.now();
        const final = await client.payments.waitForFinal(id, { minIntervalMs: 0, maxWaitMs: 5_000 });
        const elapsed = performance.now() - start;
        clearTimeout(timer);
        return { id, final, elapsed, requests: statusRequests.get(id) ?? 0 };
      }),
    );
    for (const { id, final, elapsed, requests } of results) {
      expect(final.status, id).toBe("succeeded");
      expect(requests, id).toBeGreaterThanOrEqual(1);
      expect(requests, `${id}: ${requests} requests in ${elapsed.toFixed(0)} ms`).toBeLessThanOrEqual(
        Math.ceil(elapsed / POLL_IN_MS) + 1,
      );
    }
    const counted = new Map(statusRequests);
    await new Promise((resolve) => setTimeout(resolve, POLL_IN_MS * 3));
    expect(statusRequests).toEqual(counted);
  });

  it("polls a payment that is already final exactly once", async () => {
    const { service, client, statusRequests, createPayments } = setup();
    const [id] = await createPayments(1);
    service.completePayment(id!);
    await client.payments.waitForFinal(id!, { minIntervalMs: 0 });
    expect(statusRequests.get(id!)).toBe(1);
  });
});

/**
 * Timers left above the `before` baseline, once those already due have fired: checked between short sleeps (at
 * most 2 s), so a leaked deadline timer (20 s) still shows while a sleep about to fire does not. The baseline may
 * hold a transient timer of the test runner, so only an excess counts. (No `vi.waitFor`: its own timer counts.)
 */
async function timersLeftAbove(before: Record<string, number>): Promise<Record<string, number>> {
  const excess = () => {
    const now = timers();
    return Object.fromEntries(
      Object.entries(now)
        .map(([kind, count]) => [kind, count - (before[kind] ?? 0)] as const)
        .filter(([, extra]) => extra > 0),
    );
  };
  for (let i = 0; i < 100 && Object.keys(excess()).length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return excess();
}

describe("watchers leave nothing behind", () => {
  const WATCHERS = 1_000;

  it(`${WATCHERS} concurrent watchers that run to the final status leave no timer`, async () => {
    const { service, client, createPayments } = setup();
    const ids = await createPayments(WATCHERS);
    await tick();
    const before = timers();
    // Half are final at the first poll, the others after a few polls.
    for (const id of ids.slice(0, WATCHERS / 2)) service.completePayment(id);
    const completions = ids
      .slice(WATCHERS / 2)
      .map((id, i) => setTimeout(() => service.completePayment(id), (1 + (i % 3)) * POLL_IN_MS));
    let finals = 0;
    await Promise.all(
      ids.map(async (id) => {
        for await (const status of client.payments.watch(id, { minIntervalMs: 0, maxWaitMs: 20_000 })) {
          if (status.isFinal) finals++;
        }
      }),
    );
    for (const timer of completions) clearTimeout(timer);
    await tick();
    expect(finals).toBe(WATCHERS);
    expect(await timersLeftAbove(before)).toEqual({});
  });

  it(`${WATCHERS} watchers stopped early (break, abort) leave no timer`, async () => {
    const { client, createPayments } = setup();
    const ids = await createPayments(WATCHERS);
    await tick();
    const before = timers();
    const controller = new AbortController();
    const aborted = ids.slice(WATCHERS / 2).map(async (id) => {
      try {
        for await (const _ of client.payments.watch(id, { minIntervalMs: 0, signal: controller.signal })) {
          // keeps watching until the abort
        }
      } catch (error) {
        return error;
      }
      return undefined;
    });
    await Promise.all(
      ids.slice(0, WATCHERS / 2).map(async (id) => {
        for await (const status of client.payments.watch(id, { minIntervalMs: 0 })) {
          if (status.status === "requires_action") break;
        }
      }),
    );
    controller.abort();
    const errors = await Promise.all(aborted);
    expect(errors.every((error) => error instanceof Error && error.name === "UserAbortError")).toBe(true);
    await tick();
    expect(await timersLeftAbove(before)).toEqual({});
  });

  it(`${WATCHERS} watchers sharing a worker's shutdown signal add no listener per watcher and leave none`, async () => {
    const { service, client, createPayments } = setup();
    const ids = await createPayments(WATCHERS);
    const shutdown = new AbortController();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    let peak = 0;
    try {
      const completions = ids.map((id, i) =>
        setTimeout(() => service.completePayment(id), (i % 3) * POLL_IN_MS),
      );
      await Promise.all(
        ids.map(async (id) => {
          for await (const _ of client.payments.watch(id, { minIntervalMs: 0, signal: shutdown.signal })) {
            peak = Math.max(peak, getEventListeners(shutdown.signal, "abort").length);
          }
        }),
      );
      for (const timer of completions) clearTimeout(timer);
      await tick();
    } finally {
      process.off("warning", onWarning);
    }
    // Node warns past 10 listeners on one signal (MaxListenersExceededWarning): a worker would see that warning.
    expect(peak).toBeLessThanOrEqual(10);
    expect(warnings).not.toContain("MaxListenersExceededWarning");
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
  });
});
