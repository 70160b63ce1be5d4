/**
 * One deadline covers a whole wait (issue 25 item 1): `waitForFinal` and `watch` end with `PollTimeoutError` by
 * `maxWaitMs`, whatever the client's `timeoutMs`, retries and the service's `Retry-After` would take; a
 * `Retry-After` longer than the time left ends the wait at once. The clock is vitest's fake one, the service a
 * `fetch`: nothing depends on the wall clock.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type MerchantPaymentsClient, PollTimeoutError } from "../../src/index.js";
import { clientOverFetch, deafFetch, timedOnClock } from "../helpers/fetch-service.js";
import { SUCCEEDED } from "../helpers/fixtures.js";

const PROCESSING = { status: "processing", isFinal: false, pollInMs: 1_000 };
const rateLimited = async () =>
  Response.json({ code: "rate_limited" }, { status: 429, headers: { "retry-after": "60" } });

/** Both status operations poll the same way, each on its own path. */
const FLOWS = [
  { name: "payments", of: (c: MerchantPaymentsClient) => c.payments },
  { name: "checkout", of: (c: MerchantPaymentsClient) => c.checkout },
];

// The SDK loads its HTTP and schema modules with the first call: done here, on the real clock.
beforeAll(async () => {
  await clientOverFetch(async () => Response.json(PROCESSING)).client.payments.status("pay_1");
});
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe.each(FLOWS)("$name: one deadline for the whole wait", ({ of }) => {
  it("waitForFinal against a fetch that never settles ends at maxWaitMs, not at the client's 30 s timeout", async () => {
    const { client, sentAt } = clientOverFetch(deafFetch);
    const { error, elapsedMs } = await timedOnClock(() =>
      of(client).waitForFinal("pay_1", { maxWaitMs: 5_000 }),
    );
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ lastStatus: undefined, maxWaitMs: 5_000 });
    expect(elapsedMs).toBeLessThanOrEqual(5_000 + 1_000);
    // No attempt starts once the deadline has passed.
    expect(sentAt.every((t) => t - (sentAt[0] as number) < 5_000)).toBe(true);
  });

  it("waitForFinal ends at once when Retry-After asks for more than the time left", async () => {
    const { client, calls } = clientOverFetch(rateLimited);
    const { error, elapsedMs } = await timedOnClock(() =>
      of(client).waitForFinal("pay_1", { maxWaitMs: 20_000 }),
    );
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(calls()).toBe(1);
    expect(elapsedMs).toBeLessThan(1_000);
  });

  it("waitForFinal still honours a Retry-After that fits in the time left", async () => {
    let n = 0;
    const { client, sentAt } = clientOverFetch(async () =>
      ++n === 1
        ? Response.json({ code: "rate_limited" }, { status: 429, headers: { "retry-after": "3" } })
        : Response.json(SUCCEEDED),
    );
    const { value } = await timedOnClock(() => of(client).waitForFinal("pay_1", { maxWaitMs: 20_000 }));
    expect(value).toMatchObject({ status: "succeeded" });
    expect((sentAt[1] as number) - (sentAt[0] as number)).toBeGreaterThanOrEqual(3_000);
  });

  it("watch yields what it read, then ends with PollTimeoutError at maxWaitMs when the service stops answering", async () => {
    let n = 0;
    const { client } = clientOverFetch((input, init) =>
      ++n === 1 ? Promise.resolve(Response.json(PROCESSING)) : deafFetch(input, init),
    );
    const seen: string[] = [];
    const { error, elapsedMs } = await timedOnClock(async () => {
      for await (const status of of(client).watch("pay_1", { maxWaitMs: 8_000 })) seen.push(status.status);
    });
    expect(seen).toEqual(["processing"]);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ lastStatus: "processing" });
    expect(elapsedMs).toBeLessThanOrEqual(8_000 + 1_000);
  });

  it("watch ends at once when Retry-After asks for more than the time left", async () => {
    const { client, calls } = clientOverFetch(rateLimited);
    const { error, elapsedMs } = await timedOnClock(async () => {
      for await (const _ of of(client).watch("pay_1", { maxWaitMs: 30_000 })) {
        // nothing is read
      }
    });
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(calls()).toBe(1);
    expect(elapsedMs).toBeLessThan(1_000);
  });

  it("retries inside a poll keep to the deadline: a 503 every time ends with PollTimeoutError by maxWaitMs", async () => {
    const { client, sentAt } = clientOverFetch(async () => new Response("down", { status: 503 }));
    const { error, elapsedMs } = await timedOnClock(() =>
      of(client).waitForFinal("pay_1", { maxWaitMs: 7_000 }),
    );
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(sentAt.length).toBeGreaterThan(1);
    expect(elapsedMs).toBeLessThanOrEqual(7_000 + 1_000);
  });
});
