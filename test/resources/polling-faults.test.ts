/**
 * Polling under faults, against the mock service over HTTP: waitForFinal and watch survive 5xx,
 * dropped connections, HTML pages, timeouts and rate limiting within their deadline and reach the final status;
 * the deadline ends them with PollTimeoutError (naming the last status), and a non-transient error ends them
 * with its typed error. Each poll is one request (maxRetries 0), so the faults reach the polling loop itself.
 */
import { describe, expect, it } from "vitest";
import { NotFoundError, PollTimeoutError, UserAbortError } from "../../src/index.js";
import { testClient } from "../helpers/clients.js";
import { useMockServer } from "../helpers/mock-server.js";
import { activeTimers, settle } from "../helpers/outcomes.js";
import { expectNoSecret } from "../helpers/secrets.js";
import { onFakeTime, trackCalls } from "../helpers/time.js";

const server = useMockServer({ pollInMs: 5 });

/** A client whose every status request is counted; `onPoll(n)` runs before request n (1-based) goes out. */
function client(onPoll: (n: number) => void = () => {}, timeoutMs = 2_000) {
  let n = 0;
  return testClient(server().service, {
    maxRetries: 0,
    timeoutMs,
    retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 20 },
    hooks: { onRequest: (event) => event.path.endsWith("/status") && onPoll(++n) },
  });
}

async function newPayment(): Promise<string> {
  const created = await client().payments.create({
    referenceId: `order-${Math.random()}`,
    amount: { unit: "iso4217/USD", value: "1000" },
  });
  return created.id;
}

const POLL = { minIntervalMs: 5, defaultIntervalMs: 10, maxIntervalMs: 50, maxWaitMs: 5_000 };

describe("waitForFinal survives transient failures within its deadline", () => {
  it("through 5xx, dropped connections, HTML pages and rate limits, then returns the final status", async () => {
    const id = await newPayment();
    const path = `/v1/payments/${id}/status`;
    const { injectFault } = server().service;
    injectFault({ type: "serverError", status: 503, times: 2, path });
    injectFault({ type: "drop", times: 2, path });
    injectFault({ type: "html", status: 502, times: 1, path });
    injectFault({ type: "rateLimit", retryAfterSeconds: 0, times: 2, path });
    injectFault({ type: "serverError", status: 500, times: 1, path });
    const seen: string[] = [];
    const sdk = client((n) => {
      if (n === 10) server().service.markProcessing(id);
      if (n === 12) server().service.completePayment(id);
    });
    const final = await sdk.payments.waitForFinal(id, { ...POLL, onUpdate: (s) => seen.push(s.status) });
    expect(final).toMatchObject({ status: "succeeded", isFinal: true, info: { txId: `test:${id}` } });
    expect(seen).toEqual(["requires_action", "processing", "succeeded"]);
    expect(server().service.state.faults).toEqual([]); // every fault was met
  });

  it("through answers that come too late (timeouts)", async () => {
    const id = await newPayment();
    server().service.injectFault({
      type: "latency",
      latencyMs: 200,
      times: 2,
      path: `/v1/payments/${id}/status`,
    });
    const sdk = client((n) => n === 3 && server().service.failPayment(id), 50);
    const final = await sdk.payments.waitForFinal(id, POLL);
    expect(final.status).toBe("failed");
  });

  it("under a seeded 50 % failure rate on the checkout status path, through watch()", async () => {
    const { paymentId } = await client().checkout.create({
      referenceId: "order-flaky",
      amount: { unit: "iso4217/USD", value: "1999" },
      successUrl: "https://shop.example/ok",
      errorUrl: "https://shop.example/ko",
    });
    server().service.injectFault({
      type: "serverError",
      status: 503,
      rate: 0.5,
      path: "/v1/merchant/payment/*",
    });
    const sdk = client((n) => n === 20 && server().service.expirePayment(paymentId));
    const statuses: string[] = [];
    for await (const status of sdk.checkout.watch(paymentId, POLL)) statuses.push(status.status);
    expect(statuses).toEqual(["requires_action", "expired"]);
  });

  it("ends with PollTimeoutError at the deadline when the service never recovers", async () => {
    const id = await newPayment();
    server().service.injectFault({
      type: "serverError",
      status: 503,
      rate: 1,
      path: `/v1/payments/${id}/status`,
    });
    const baseline = activeTimers();
    const started = performance.now();
    const result = await settle(() => client().payments.waitForFinal(id, { ...POLL, maxWaitMs: 120 }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(120 - 2);
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ paymentId: id, lastStatus: undefined });
    expectNoSecret(error);
    expect(activeTimers()).toBeLessThanOrEqual(baseline);
  });

  it("names the last status seen when the deadline passes", async () => {
    const id = await newPayment();
    const sdk = client((n) => n === 2 && server().service.markProcessing(id));
    // Fake time: the deadline passes after the polls that fit in 100 ms, however slow the machine is.
    const payments = trackCalls(sdk.payments, "status");
    const result = await onFakeTime(() =>
      settle(() => payments.waitForFinal(id, { ...POLL, maxWaitMs: 100 })),
    );
    expect((result as { error: unknown }).error).toMatchObject({
      name: "PollTimeoutError",
      lastStatus: "processing",
    });
  });

  it("stops at the first non-transient error (an unknown payment) with its typed error", async () => {
    const sdk = client();
    const result = await settle(() => sdk.payments.waitForFinal("pay_does_not_exist", POLL));
    expect((result as { error: unknown }).error).toBeInstanceOf(NotFoundError);
    const polls = server().service.requests.filter(
      (r) => r.path === "/v1/payments/pay_does_not_exist/status",
    );
    expect(polls).toHaveLength(1);
  });

  it("stops at once on abort while the service is failing", async () => {
    const id = await newPayment();
    server().service.injectFault({ type: "drop", rate: 1, path: `/v1/payments/${id}/status` });
    const controller = new AbortController();
    const sdk = client((n) => n === 3 && controller.abort());
    const result = await settle(() => sdk.payments.waitForFinal(id, { ...POLL, signal: controller.signal }));
    expect((result as { error: unknown }).error).toBeInstanceOf(UserAbortError);
    const polls = server().service.requests.filter((r) => r.path === `/v1/payments/${id}/status`);
    expect(polls.length).toBeLessThanOrEqual(3);
  });
});
