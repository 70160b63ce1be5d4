import { delay, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import {
  type ClientOptions,
  InputValidationError,
  type MerchantPaymentsClient,
  NotFoundError,
  type PaymentStatusResult,
  type PollOptions,
  PollTimeoutError,
  ResponseValidationError,
  UserAbortError,
} from "../../src/index.js";
import { failure } from "../helpers/assertions.js";
import { DEFAULT_MERCHANT_ID as MERCHANT_ID, testClient } from "../helpers/clients.js";
import { final, pending, SUCCEEDED } from "../helpers/fixtures.js";
import { apiError, json, networkError, useRecordingServer } from "../helpers/recording-server.js";
import { advanceUntilSettled, passTime, trackCalls, useFakeTime, waitUntil } from "../helpers/time.js";

const mock = useRecordingServer();
// Polling waits on the fake clock: a deadline fires only after every answer due before it was read.
useFakeTime();

/** Lets pending timers and requests run, to show that nothing more is sent. */
const idle = () => passTime(60_000);

/** Both status operations poll the same way, each on its own path. */
const FLOWS = [
  { name: "payments", path: "/v1/payments/pay_1/status", of: (c: MerchantPaymentsClient) => c.payments },
  {
    name: "checkout",
    path: "/v1/merchant/payment/pay_1/status",
    of: (c: MerchantPaymentsClient) => c.checkout,
  },
];

describe.each(FLOWS)("$name.waitForFinal / $name.watch", ({ path, of }) => {
  /** A client recording when each attempt starts; no transport-level retries, so polling does the waiting. */
  function setup(options: ClientOptions = {}) {
    const startedAt: number[] = [];
    const client = testClient({
      merchantId: MERCHANT_ID,
      maxRetries: 0,
      hooks: { onRequest: () => startedAt.push(performance.now()) },
      ...options,
    });
    const gaps = () => startedAt.slice(1).map((t, i) => t - (startedAt[i] as number));
    return { resource: trackCalls(of(client), "status"), gaps };
  }
  const wait = (options: PollOptions = {}) =>
    setup().resource.waitForFinal("pay_1", { minIntervalMs: 0, defaultIntervalMs: 1, ...options });

  it("follows pollInMs until a final status and returns it", async () => {
    mock.respond(json(pending("requires_action", 5)), json(pending("processing", 5)), json(SUCCEEDED));
    const result = await advanceUntilSettled(wait());
    expect(result).toEqual(SUCCEEDED);
    expect(mock.requests).toHaveLength(3);
    expect(mock.requests.every((r) => r.method === "GET" && r.url.pathname === path)).toBe(true);
    expect(mock.requests.every((r) => r.headers.get("merchant-id") === MERCHANT_ID)).toBe(true);
  });

  it("waits at least pollInMs between polls", async () => {
    const { resource, gaps } = setup();
    mock.respond(json(pending("processing", 30)), json(pending("processing", 30)), json(SUCCEEDED));
    await advanceUntilSettled(resource.waitForFinal("pay_1", { minIntervalMs: 0, defaultIntervalMs: 1 }));
    expect(gaps()).toHaveLength(2);
    for (const gap of gaps()) expect(gap).toBeGreaterThanOrEqual(28);
  });

  it("calls onUpdate once per change of status, the first and the final included", async () => {
    const updates: string[] = [];
    mock.respond(
      json(pending("requires_action")),
      json(pending("requires_action")),
      json(pending("processing")),
      json(pending("processing")),
      json(SUCCEEDED),
    );
    await advanceUntilSettled(wait({ onUpdate: (status) => updates.push(status.status) }));
    expect(updates).toEqual(["requires_action", "processing", "succeeded"]);
    expect(mock.requests).toHaveLength(5);
  });

  it.each(["succeeded", "failed", "expired", "cancelled"])("stops at the final status %s", async (status) => {
    mock.respond(json(status === "succeeded" ? SUCCEEDED : final(status)), json(pending("processing")));
    const result = await advanceUntilSettled(wait());
    expect(result.status).toBe(status);
    await idle();
    expect(mock.requests).toHaveLength(1);
  });

  it("never polls faster than minIntervalMs, whatever pollInMs says", async () => {
    const { resource, gaps } = setup();
    mock.respond(json(pending("processing", 0)), json(pending("processing", 0)), json(SUCCEEDED));
    await advanceUntilSettled(resource.waitForFinal("pay_1", { minIntervalMs: 25, defaultIntervalMs: 1 }));
    expect(gaps()).toHaveLength(2);
    for (const gap of gaps()) expect(gap).toBeGreaterThanOrEqual(23);
  });

  it("never waits longer than maxIntervalMs, whatever pollInMs says", async () => {
    mock.respond(json(pending("processing", 600_000)), json(SUCCEEDED));
    // With the hint honoured this would wait ten minutes and the test would time out.
    const result = await advanceUntilSettled(wait({ maxIntervalMs: 5 }));
    expect(result.status).toBe("succeeded");
  });

  it.each([
    ["absent", { status: "processing", isFinal: false }],
    ["null", { status: "processing", isFinal: false, pollInMs: null }],
  ])("uses defaultIntervalMs when pollInMs is %s", async (_label, answer) => {
    const { resource, gaps } = setup();
    mock.respond(json(answer), json(SUCCEEDED));
    await advanceUntilSettled(resource.waitForFinal("pay_1", { minIntervalMs: 0, defaultIntervalMs: 30 }));
    expect(mock.requests).toHaveLength(2);
    expect(gaps()[0]).toBeGreaterThanOrEqual(28);
  });

  it("throws PollTimeoutError with the last status seen once maxWaitMs has passed", async () => {
    mock.respond(json(pending("processing", 5)));
    // Generous enough for the first answer on a loaded machine: the test is about what happens at the deadline.
    const error = await advanceUntilSettled(failure(() => wait({ maxWaitMs: 400 })));
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ paymentId: "pay_1", lastStatus: "processing" });
    const count = mock.requests.length;
    expect(count).toBeGreaterThanOrEqual(1);
    await idle();
    expect(mock.requests).toHaveLength(count);
  });

  it("throws PollTimeoutError without a last status when no answer came in time", async () => {
    mock.respond(async () => {
      await delay("infinite");
      return HttpResponse.json({});
    });
    const error = await advanceUntilSettled(failure(() => wait({ maxWaitMs: 40 })));
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as PollTimeoutError).lastStatus).toBeUndefined();
  });

  it("stops promptly with UserAbortError when aborted during a wait, sending nothing more", async () => {
    mock.respond(json(pending("processing", 600_000)));
    const controller = new AbortController();
    const pendingWait = failure(() => wait({ signal: controller.signal, maxIntervalMs: 600_000 }));
    await waitUntil(() => mock.requests.length > 0, "the first poll");
    controller.abort();
    // Were the abort ignored, the ten-minute wait would outlast the test's timeout.
    expect(await pendingWait).toBeInstanceOf(UserAbortError);
    await idle();
    expect(mock.requests).toHaveLength(1);
  });

  it("stops with UserAbortError when aborted during a request", async () => {
    mock.respond(async () => {
      await delay("infinite");
      return HttpResponse.json({});
    });
    const controller = new AbortController();
    const pendingWait = failure(() => wait({ signal: controller.signal }));
    await waitUntil(() => mock.requests.length > 0, "the first poll");
    controller.abort("order cancelled");
    const error = await pendingWait;
    expect(error).toBeInstanceOf(UserAbortError);
    expect((error as UserAbortError).cause).toBe("order cancelled");
  });

  it("sends nothing when the signal is already aborted", async () => {
    const error = await advanceUntilSettled(failure(() => wait({ signal: AbortSignal.abort() })));
    expect(error).toBeInstanceOf(UserAbortError);
    expect(mock.requests).toHaveLength(0);
  });

  it("waits out 503, a dropped connection and 429, then succeeds", async () => {
    mock.respond(
      apiError(503, "unavailable"),
      networkError(),
      apiError(429, "rate_limited", { "Retry-After": "0.005" }),
      apiError(429, "rate_limited"),
      json(pending("processing")),
      json(SUCCEEDED),
    );
    const updates: string[] = [];
    const result = await advanceUntilSettled(wait({ onUpdate: (s) => updates.push(s.status) }));
    expect(result).toEqual(SUCCEEDED);
    expect(mock.requests).toHaveLength(6);
    expect(updates).toEqual(["processing", "succeeded"]);
  });

  it("keeps the status seen before a transient error as lastStatus on timeout", async () => {
    mock.respond(json(pending("requires_action")), apiError(503, "unavailable"));
    const error = await advanceUntilSettled(failure(() => wait({ maxWaitMs: 50 })));
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as PollTimeoutError).lastStatus).toBe("requires_action");
  });

  it("ends at a non-transient error (404) and sends nothing more", async () => {
    mock.respond(json(pending("processing")), apiError(404, "not_found"), json(SUCCEEDED));
    const error = await advanceUntilSettled(failure(() => wait()));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(mock.requests).toHaveLength(2);
    await idle();
    expect(mock.requests).toHaveLength(2);
  });

  it('keeps polling an unknown non-final status such as "on_hold"', async () => {
    const updates: string[] = [];
    mock.respond(json(pending("on_hold")), json(pending("on_hold")), json(SUCCEEDED));
    const result = await advanceUntilSettled(wait({ onUpdate: (s) => updates.push(s.status) }));
    expect(result.status).toBe("succeeded");
    expect(mock.requests).toHaveLength(3);
    expect(updates).toEqual(["on_hold", "succeeded"]);
  });

  it("ends with ResponseValidationError when an unknown status claims to be final", async () => {
    mock.respond(json(pending("processing")), json({ status: "on_hold", isFinal: true, pollInMs: null }));
    const error = await advanceUntilSettled(failure(() => wait()));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(mock.requests).toHaveLength(2);
  });

  it("uses options.merchantId for every poll", async () => {
    mock.respond(json(pending("processing")), json(SUCCEEDED));
    await advanceUntilSettled(wait({ merchantId: "mrch_other" }));
    expect(mock.requests.map((r) => r.headers.get("merchant-id"))).toEqual(["mrch_other", "mrch_other"]);
  });

  it.each([
    [{ minIntervalMs: 50, maxIntervalMs: 10 }, "options.minIntervalMs"],
    [{ maxWaitMs: -1 }, "options.maxWaitMs"],
    [{ defaultIntervalMs: Number.NaN }, "options.defaultIntervalMs"],
    [{ maxIntervalMs: Number.POSITIVE_INFINITY }, "options.maxIntervalMs"],
  ])("refuses poll options %o on %s and sends nothing", async (options, field) => {
    const error = await advanceUntilSettled(failure(() => setup().resource.waitForFinal("pay_1", options)));
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).field).toBe(field);
    expect(mock.requests).toHaveLength(0);
  });

  it("watch yields each change once and completes after the final status", async () => {
    mock.respond(
      json(pending("requires_action")),
      json(pending("requires_action")),
      json(pending("processing")),
      json(SUCCEEDED),
    );
    const seen: PaymentStatusResult[] = [];
    await advanceUntilSettled(
      (async () => {
        for await (const status of setup().resource.watch("pay_1", { minIntervalMs: 0 })) seen.push(status);
      })(),
    );
    expect(seen.map((s) => s.status)).toEqual(["requires_action", "processing", "succeeded"]);
    expect(seen.at(-1)).toEqual(SUCCEEDED);
    expect(mock.requests).toHaveLength(4);
    expect(mock.requests.every((r) => r.url.pathname === path)).toBe(true);
  });

  it("watch releases on break: no request after the consumer stops", async () => {
    mock.respond(json(pending("processing", 1)));
    const { resource } = setup();
    const timers = () => vi.getTimerCount();
    const before = timers();
    const seen: string[] = [];
    for await (const status of resource.watch("pay_1", { minIntervalMs: 0, maxWaitMs: 60_000 })) {
      seen.push(status.status);
      break;
    }
    expect(seen).toEqual(["processing"]);
    // The one-minute deadline timer must be gone with the loop.
    expect(timers()).toBe(before);
    await idle();
    expect(mock.requests).toHaveLength(1);
  });

  it("watch throws PollTimeoutError from the loop at the deadline", async () => {
    mock.respond(json(pending("processing", 5)));
    const seen: string[] = [];
    const error = await advanceUntilSettled(
      failure(async () => {
        for await (const status of setup().resource.watch("pay_1", { minIntervalMs: 0, maxWaitMs: 40 })) {
          seen.push(status.status);
        }
      }),
    );
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(seen).toEqual(["processing"]);
  });

  it("watch stops with UserAbortError on abort", async () => {
    mock.respond(json(pending("processing", 600_000)));
    const controller = new AbortController();
    const error = await advanceUntilSettled(
      failure(async () => {
        for await (const _ of setup().resource.watch("pay_1", {
          signal: controller.signal,
          maxIntervalMs: 600_000,
        })) {
          controller.abort();
        }
      }),
    );
    expect(error).toBeInstanceOf(UserAbortError);
    expect(mock.requests).toHaveLength(1);
  });
});

describe("a status is final only when isFinal is true and the status is a documented terminal one", () => {
  // Tolerant reading returns what arrived; the money rule is the polling's own.
  const tolerant = () =>
    trackCalls(
      testClient({ merchantId: MERCHANT_ID, maxRetries: 0, responseValidation: "tolerant" }).payments,
      "status",
    );
  const poll = { minIntervalMs: 0, defaultIntervalMs: 1, maxWaitMs: 80 };

  it.each([
    ["an unknown status claiming to be final", { status: "settled_maybe", isFinal: true, pollInMs: null }],
    ["succeeded with isFinal false", { status: "succeeded", isFinal: false, pollInMs: 1 }],
    ["succeeded with isFinal as a string", { status: "succeeded", isFinal: "true", pollInMs: null }],
    ["succeeded with isFinal 1", { status: "succeeded", isFinal: 1, pollInMs: null }],
  ])("%s keeps polling to the deadline", async (_label, answer) => {
    mock.respond(json(answer));
    const error = await advanceUntilSettled(failure(() => tolerant().waitForFinal("pay_1", poll)));
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(mock.requests.length).toBeGreaterThan(1);
  });

  it("a contradictory answer followed by a consistent final one ends at the consistent one", async () => {
    mock.respond(json({ status: "succeeded", isFinal: false, pollInMs: 1 }), json(SUCCEEDED));
    const result = await advanceUntilSettled(
      tolerant().waitForFinal("pay_1", { ...poll, maxWaitMs: 60_000 }),
    );
    expect(result).toEqual(SUCCEEDED);
  });
});
