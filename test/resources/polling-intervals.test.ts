/**
 * Polling: waitForFinal never polls faster than the service's hint or its floor (also for an unknown
 * status, a missing or null pollInMs, after a transient error or a rate limit), and stops at once on abort,
 * leaving no timer behind. Gaps are measured in hooks.onRequest; only lower bounds are asserted.
 */
import { delay, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import {
  type ClientOptions,
  MerchantPaymentsClient,
  type PaymentStatusResult,
  type PollOptions,
  UserAbortError,
} from "../../src/index.js";
import { testClient } from "../helpers/clients.js";
import { activeTimers, settle } from "../helpers/outcomes.js";
import { apiError, BASE_URL, json, useRecordingServer } from "../helpers/recording-server.js";
import { SECRET_KEY } from "../helpers/secrets.js";
import { waitUntil } from "../helpers/time.js";

const mock = useRecordingServer();
const PAYMENT = "pay_poll1";
/** performance.now() of each poll (the first attempt of each status call). */
let polls: number[] = [];

const pending = (status: string, pollInMs?: number | null) => {
  const body: Record<string, unknown> = { status, isFinal: false };
  if (pollInMs !== undefined) body.pollInMs = pollInMs;
  return json(body);
};
const FINAL = json({ status: "failed", isFinal: true, pollInMs: null });
const SUCCEEDED = json({
  status: "succeeded",
  isFinal: true,
  pollInMs: null,
  info: { txId: "test:pay_poll1", optionAmount: { unit: "caip19/eip155:1/slip44:60", value: "1" } },
});

function client(options: ClientOptions = {}) {
  polls = [];
  return testClient({
    apiKey: SECRET_KEY,
    merchantId: "mrch_poll",
    maxRetries: 0,
    retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 60_000 },
    hooks: {
      onRequest: (event) => {
        if (event.attempt === 0) polls.push(performance.now());
      },
    },
    ...options,
  });
}

function gaps(): number[] {
  return polls.slice(1).map((at, i) => at - (polls[i] as number));
}

/** Every gap between polls is at least `floor` (minus 2 ms of timer slack). */
function expectGapsAtLeast(floor: number, count: number) {
  expect(polls).toHaveLength(count);
  for (const gap of gaps()) expect(gap).toBeGreaterThanOrEqual(floor - 2);
}

async function wait(options: PollOptions): Promise<PaymentStatusResult> {
  return client().payments.waitForFinal(PAYMENT, { maxWaitMs: 10_000, ...options });
}

describe("never faster than the hint or the floor", () => {
  it("follows pollInMs when it is above the floor", async () => {
    mock.respond(pending("requires_action", 60), pending("processing", 60), pending("processing", 60), FINAL);
    const final = await wait({ minIntervalMs: 5 });
    expect(final.status).toBe("failed");
    expectGapsAtLeast(60, 4);
  });

  it("holds the floor when pollInMs is 0", async () => {
    mock.respond(pending("processing", 0), pending("processing", 0), pending("processing", 0), FINAL);
    await wait({ minIntervalMs: 40 });
    expectGapsAtLeast(40, 4);
  });

  it("holds the default floor of 250 ms when pollInMs is 0 and no option is given", async () => {
    mock.respond(pending("processing", 0), pending("processing", 1), SUCCEEDED);
    const final = await wait({});
    expect(final.status).toBe("succeeded");
    expectGapsAtLeast(250, 3);
  });

  it("uses defaultIntervalMs (never less than the floor) when pollInMs is missing", async () => {
    mock.respond(pending("requires_action"), pending("processing"), FINAL);
    await wait({ minIntervalMs: 5, defaultIntervalMs: 50 });
    expectGapsAtLeast(50, 3);
  });

  it("uses defaultIntervalMs when pollInMs is null on a pending payment", async () => {
    mock.respond(pending("processing", null), pending("processing", null), FINAL);
    await wait({ minIntervalMs: 5, defaultIntervalMs: 50 });
    expectGapsAtLeast(50, 3);
  });

  it("keeps polling an unknown status without a hint at the default interval, never taking it as final", async () => {
    const seen: string[] = [];
    mock.respond(pending("on_hold"), pending("under_review", 0), pending("on_hold"), FINAL);
    const final = await wait({
      minIntervalMs: 20,
      defaultIntervalMs: 45,
      onUpdate: (s) => seen.push(s.status),
    });
    expect(seen).toEqual(["on_hold", "under_review", "on_hold", "failed"]);
    expect(final.isFinal).toBe(true);
    const [first, second, third] = gaps();
    expect(first).toBeGreaterThanOrEqual(45 - 2); // no hint: the default interval
    expect(second).toBeGreaterThanOrEqual(20 - 2); // hint 0: the floor
    expect(third).toBeGreaterThanOrEqual(45 - 2);
  });

  it("clamps a huge hint to maxIntervalMs but never below minIntervalMs", async () => {
    mock.respond(pending("processing", 3_600_000), FINAL);
    await wait({ minIntervalMs: 30, maxIntervalMs: 30 });
    expectGapsAtLeast(30, 2);
  });

  it("waits defaultIntervalMs (at least the floor) after a 5xx before polling again", async () => {
    mock.respond(apiError(503, "unavailable"), apiError(500, "internal"), pending("processing", 0), FINAL);
    await wait({ minIntervalMs: 30, defaultIntervalMs: 40 });
    expectGapsAtLeast(30, 4);
    const [afterFirst, afterSecond] = gaps();
    expect(afterFirst).toBeGreaterThanOrEqual(40 - 2);
    expect(afterSecond).toBeGreaterThanOrEqual(40 - 2);
  });

  it("waits Retry-After (capped by retry.maxRetryAfterMs) after a rate limit, and the floor when it is 0", async () => {
    mock.respond(
      apiError(429, "rate_limited", { "Retry-After": "1" }),
      apiError(429, "rate_limited", { "Retry-After": "0" }),
      apiError(400, "rate_limited"),
      FINAL,
    );
    const capped = client({ retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 80 } });
    await capped.payments.waitForFinal(PAYMENT, {
      maxWaitMs: 10_000,
      minIntervalMs: 25,
      defaultIntervalMs: 50,
    });
    const [afterRetryAfter, afterZero, afterNoHeader] = gaps();
    expect(afterRetryAfter).toBeGreaterThanOrEqual(80 - 2);
    expect(afterZero).toBeGreaterThanOrEqual(25 - 2);
    expect(afterNoHeader).toBeGreaterThanOrEqual(50 - 2);
  });

  it("keeps the floor between polls even when the transport retries inside one poll", async () => {
    mock.respond(apiError(503, "unavailable"), pending("processing", 0), pending("processing", 0), FINAL);
    polls = [];
    const sdk = client({ maxRetries: 2 });
    await sdk.payments.waitForFinal(PAYMENT, { minIntervalMs: 30, maxWaitMs: 10_000 });
    expect(mock.requests).toHaveLength(4); // the 503 was retried within the first poll
    expectGapsAtLeast(30, 3);
  });
});

/** True once the promise has settled, checked after a couple of event-loop turns. */
async function settledSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  for (let i = 0; i < 3 && !settled; i++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe("abort stops at once and leaves nothing behind", () => {
  it("while waiting between polls", async () => {
    mock.respond(pending("processing", 3_600_000));
    const baseline = activeTimers();
    const controller = new AbortController();
    let updates = 0;
    const run = settle(() =>
      wait({
        signal: controller.signal,
        onUpdate: () => {
          updates++;
        },
      }),
    );
    await waitUntil(() => updates > 0, "the first status");
    controller.abort(new Error("shutting down"));
    expect(await settledSoon(run)).toBe(true);
    const result = await run;
    expect(result.ok).toBe(false);
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(UserAbortError);
    expect((error as Error).cause).toEqual(new Error("shutting down"));
    expect(mock.requests).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(mock.requests).toHaveLength(1);
    expect(activeTimers()).toBeLessThanOrEqual(baseline);
  });

  it("while a status request is in flight", async () => {
    mock.respond(async () => {
      await delay("infinite");
      return HttpResponse.json({});
    });
    const baseline = activeTimers();
    const controller = new AbortController();
    const run = settle(() => wait({ signal: controller.signal }));
    await waitUntil(() => mock.requests.length > 0, "the first status request");
    controller.abort();
    expect(await settledSoon(run)).toBe(true);
    expect(((await run) as { error: unknown }).error).toBeInstanceOf(UserAbortError);
    expect(activeTimers()).toBeLessThanOrEqual(baseline);
  });

  it("while the transport waits out a long Retry-After inside a poll", async () => {
    mock.respond(apiError(503, "unavailable", { "Retry-After": "30" }));
    const baseline = activeTimers();
    const controller = new AbortController();
    let retried = false;
    // Default retry policy: a Retry-After of 30 s is honoured (up to 60 s), so the abort lands in that wait.
    const observed = new MerchantPaymentsClient({
      apiKey: SECRET_KEY,
      baseUrl: BASE_URL,
      merchantId: "mrch_poll",
      hooks: {
        onRetry: () => {
          retried = true;
        },
      },
    });
    const run = settle(() =>
      observed.payments.waitForFinal(PAYMENT, { signal: controller.signal, maxWaitMs: 60_000 }),
    );
    await waitUntil(() => retried, "the retry");
    controller.abort();
    expect(await settledSoon(run)).toBe(true);
    expect(((await run) as { error: unknown }).error).toBeInstanceOf(UserAbortError);
    expect(mock.requests).toHaveLength(1);
    expect(activeTimers()).toBeLessThanOrEqual(baseline);
  });

  it("with a signal that is already aborted: nothing is sent", async () => {
    const result = await settle(() => wait({ signal: AbortSignal.abort() }));
    expect((result as { error: unknown }).error).toBeInstanceOf(UserAbortError);
    expect(mock.requests).toHaveLength(0);
  });

  it("when a watch() consumer stops early, no timer is left", async () => {
    mock.respond(pending("requires_action", 3_600_000));
    const baseline = activeTimers();
    for await (const status of client().payments.watch(PAYMENT, { maxWaitMs: 60_000 })) {
      expect(status.status).toBe("requires_action");
      break;
    }
    expect(activeTimers()).toBeLessThanOrEqual(baseline);
  });
});
