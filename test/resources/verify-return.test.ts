/**
 * `checkout.verifyReturn` inside a request handler: a wait that runs out is an answer ("keep waiting"), never an
 * error; `wait: true` is bounded by a short default (10 s); malformed params are an `InputValidationError`. The
 * clock is vitest's fake one, and the service a `fetch` that answers at once: nothing depends on the wall clock.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type ClientOptions,
  InputValidationError,
  MerchantPaymentsClient,
  PollTimeoutError,
  type VerifyReturnParams,
} from "../../src/index.js";
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

/** Runs `call` while moving the fake clock forward 500 ms at a time, up to `limitMs` of fake time. */
async function settleWithClock<T>(call: Promise<T>, limitMs = 60 * 60_000): Promise<T> {
  let settled = false;
  const tracked = call.finally(() => {
    settled = true;
  });
  tracked.catch(() => {});
  for (let elapsed = 0; !settled && elapsed < limitMs; elapsed += 500) {
    await vi.advanceTimersByTimeAsync(500);
  }
  return tracked;
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
    expect(outcome.status.status).toBe("processing");
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

  it("when nothing could be read before the deadline, the service's own error is thrown, not PollTimeoutError", async () => {
    const { client } = clientAnswering(() => new Response("down", { status: 503 }));
    const error = await settleWithClock(client.checkout.verifyReturn({ ...RETURN, wait: true })).catch(
      (caught: unknown) => caught,
    );
    expect(error).not.toBeInstanceOf(PollTimeoutError);
    expect((error as Error).name).toBe("InternalServerError");
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
