/**
 * `checkout.verifyReturn` inside a request handler: a wait that runs out is an answer ("keep waiting"), never an
 * error; `wait: true` is bounded by a short default (10 s); malformed params are an `InputValidationError`. The
 * clock is vitest's fake one, and the service a `fetch` that answers at once: nothing depends on the wall clock.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type CheckoutOutcome,
  type ClientOptions,
  InputValidationError,
  MerchantPaymentsClient,
  PollTimeoutError,
  type VerifyReturnParams,
} from "../../src/index.js";
import {
  clientOverFetch,
  deafFetch,
  hangingFetch,
  settleWithClock,
  timedOnClock,
} from "../helpers/fetch-service.js";
import { SUCCEEDED } from "../helpers/fixtures.js";

const PROCESSING = { status: "processing", isFinal: false, pollInMs: 1_000 };
const RETURN = { url: "/checkout/success?payment_id=pay_1", expectedPaymentId: "pay_1" };

/** A client whose service answers every status call with `answer()`; `calls` counts them. */
function clientAnswering(answer: () => Response, options: Pick<ClientOptions, "responseValidation"> = {}) {
  const calls: number[] = [];
  const client = new MerchantPaymentsClient({
    apiKey: "mock_test_sk_verify",
    baseUrl: "https://api.merchant-payments.test",
    merchantId: "mrch_1",
    maxRetries: 0,
    ...options,
    fetch: async () => {
      calls.push(Date.now());
      return answer();
    },
  });
  return { client, calls };
}

// The SDK loads its HTTP and schema modules with the first call: done here, on the real clock, so that the fake
// clock below only ever moves while a call waits on a timer.
beforeAll(async () => {
  await clientAnswering(() => Response.json(PROCESSING)).client.checkout.status("pay_1");
});
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("verifyReturn with wait", () => {
  it("returns keep_waiting with the last status when maxWaitMs runs out (no PollTimeoutError)", async () => {
    const { client, calls } = clientAnswering(() => Response.json(PROCESSING));
    const outcome = await settleWithClock(
      client.checkout.verifyReturn({ ...RETURN, wait: { maxWaitMs: 60_000 } }),
    );
    expect(outcome).toMatchObject({ paymentId: "pay_1", next: "keep_waiting", fulfil: false });
    expect(outcome.status?.status).toBe("processing");
    expect(calls.length).toBeGreaterThan(1);
    expect(Math.max(...calls) - Math.min(...calls)).toBeLessThanOrEqual(60_000);
  });

  it("wait: true gives up after 10 seconds, not 15 minutes", async () => {
    const { client, calls } = clientAnswering(() => Response.json(PROCESSING));
    const started = Date.now();
    const outcome = await settleWithClock(client.checkout.verifyReturn({ ...RETURN, wait: true }));
    expect(outcome.next).toBe("keep_waiting");
    expect(Date.now() - started).toBeLessThanOrEqual(10_500);
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
    expect(calls.length).toBeGreaterThan(1);
  });

  it("polling options without maxWaitMs are bounded by the same 10 s", async () => {
    const { client } = clientAnswering(() => Response.json(PROCESSING));
    const started = Date.now();
    await settleWithClock(client.checkout.verifyReturn({ ...RETURN, wait: { minIntervalMs: 500 } }));
    expect(Date.now() - started).toBeLessThanOrEqual(10_500);
  });

  it("a contradictory answer polled to the deadline is keep_waiting, never fulfil", async () => {
    const contradiction = { ...SUCCEEDED, isFinal: "true", pollInMs: 500 };
    const { client } = clientAnswering(() => Response.json(contradiction), {
      responseValidation: "tolerant",
    });
    const outcome = await settleWithClock(client.checkout.verifyReturn({ ...RETURN, wait: true }));
    expect(outcome).toMatchObject({ next: "keep_waiting", fulfil: false });
  });

  it("still fulfils when the payment turns final within the wait", async () => {
    let n = 0;
    const { client } = clientAnswering(() => Response.json(++n < 3 ? PROCESSING : SUCCEEDED));
    const outcome = await settleWithClock(client.checkout.verifyReturn({ ...RETURN, wait: true }));
    expect(outcome).toMatchObject({ next: "fulfil", fulfil: true });
  });

  it("ends at a non-transient error with that error, not PollTimeoutError", async () => {
    const { client } = clientAnswering(() => Response.json({ code: "not_found" }, { status: 404 }));
    const error = await settleWithClock(client.checkout.verifyReturn({ ...RETURN, wait: true })).catch(
      (caught: unknown) => caught,
    );
    expect(error).not.toBeInstanceOf(PollTimeoutError);
    expect((error as Error).name).toBe("NotFoundError");
  });
});

/**
 * One deadline covers the whole wait (issue 25 item 1): the client's own timeout (30 s) and retries (2, with
 * Retry-After honoured up to 60 s) stay in force, yet whatever the service does, the buyer gets an answer within
 * `maxWaitMs`, and it is `keep_waiting`, not an error.
 */
describe("verifyReturn's wait keeps its deadline, whatever the service does", () => {
  /** The outcome of `verifyReturn` and the fake time it took (an error fails the test). */
  async function timed(client: MerchantPaymentsClient, wait: VerifyReturnParams["wait"]) {
    const {
      value: outcome,
      error,
      elapsedMs,
    } = await timedOnClock(() => client.checkout.verifyReturn({ ...RETURN, wait }));
    if (error !== undefined) throw error;
    return { outcome: outcome as CheckoutOutcome, elapsedMs };
  }

  it("a service that hangs: keep_waiting with no status, within wait: true's 10 s (was TimeoutError after 101 s)", async () => {
    const { client } = clientOverFetch(hangingFetch);
    const { outcome, elapsedMs } = await timed(client, true);
    expect(outcome).toEqual({ paymentId: "pay_1", status: undefined, next: "keep_waiting", fulfil: false });
    expect(elapsedMs).toBeLessThanOrEqual(10_000 + 1_000);
  });

  it("a fetch that never settles and ignores its signal: each attempt's timeout is cut to the time left", async () => {
    const { client, calls } = clientOverFetch(deafFetch);
    const { outcome, elapsedMs } = await timed(client, { maxWaitMs: 4_000 });
    expect(outcome).toMatchObject({ status: undefined, next: "keep_waiting" });
    expect(calls()).toBe(1);
    expect(elapsedMs).toBeLessThanOrEqual(4_000 + 1_000);
  });

  it("a 429 with Retry-After: 60 ends the wait at once with keep_waiting (was RateLimitError after 130 s)", async () => {
    const { client, calls } = clientOverFetch(async () =>
      Response.json({ code: "rate_limited" }, { status: 429, headers: { "retry-after": "60" } }),
    );
    const { outcome, elapsedMs } = await timed(client, { maxWaitMs: 20_000 });
    expect(outcome).toMatchObject({ status: undefined, next: "keep_waiting", fulfil: false });
    // The service asked for a pause longer than the time left: no sleep is taken, nothing more is sent.
    expect(calls()).toBe(1);
    expect(elapsedMs).toBeLessThan(1_000);
  });

  it("a 503 every time: keep_waiting with no status, within the deadline (was an error at 11 s)", async () => {
    const { client, calls } = clientOverFetch(async () => new Response("down", { status: 503 }));
    const { outcome, elapsedMs } = await timed(client, true);
    expect(outcome).toMatchObject({ status: undefined, next: "keep_waiting", fulfil: false });
    expect(calls()).toBeGreaterThan(3);
    expect(elapsedMs).toBeLessThanOrEqual(10_000 + 1_000);
  });

  it("a status read before the service starts hanging is the one answered, within the deadline", async () => {
    let n = 0;
    const { client } = clientOverFetch((input, init) =>
      ++n === 1 ? Promise.resolve(Response.json(PROCESSING)) : hangingFetch(input, init),
    );
    const { outcome, elapsedMs } = await timed(client, { maxWaitMs: 5_000 });
    expect(outcome).toMatchObject({ next: "keep_waiting", fulfil: false, status: { status: "processing" } });
    expect(elapsedMs).toBeLessThanOrEqual(5_000 + 1_000);
  });
});

describe("verifyReturn refuses malformed params with an InputValidationError", () => {
  it.each<[string, unknown]>([
    ["query: null", { query: null, expectedPaymentId: "pay_1" }],
    ["query: 42", { query: 42, expectedPaymentId: "pay_1" }],
    ["url: 42", { url: 42, expectedPaymentId: "pay_1" }],
    ["url: {}", { url: {}, expectedPaymentId: "pay_1" }],
    ["wait: 'yes'", { ...RETURN, wait: "yes" }],
    ["wait: { maxWaitMs: -1 }", { ...RETURN, wait: { maxWaitMs: -1 } }],
    ["expectedPaymentId: null", { url: RETURN.url, expectedPaymentId: null }],
  ])("%s", async (_label, params) => {
    const { client, calls } = clientAnswering(() => Response.json(PROCESSING));
    const error = await client.checkout
      .verifyReturn(params as VerifyReturnParams)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputValidationError);
    expect(calls).toHaveLength(0);
  });
});
