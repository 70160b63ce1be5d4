/**
 * A service that is only a `fetch` function, and a fake clock moved in steps: for the tests of waits that must keep
 * their deadline whatever the service does (answer at once, fail, rate-limit, or never answer at all).
 */
import { vi } from "vitest";
import { MerchantPaymentsClient } from "../../src/index.js";

/**
 * A client with the SDK's default timeout (30 s) and retries (2, `Retry-After` honoured up to 60 s) over `fetch`;
 * `calls()` counts the attempts sent, `sentAt` holds the time (fake clock) each one started.
 */
export function clientOverFetch(fetch: typeof globalThis.fetch) {
  const sentAt: number[] = [];
  const client = new MerchantPaymentsClient({
    apiKey: "mock_test_sk_deadline",
    baseUrl: "https://api.merchant-payments.test",
    merchantId: "mrch_1",
    fetch: (input, init) => {
      sentAt.push(performance.now());
      return fetch(input, init);
    },
  });
  return { client, calls: () => sentAt.length, sentAt };
}

/** A service that never answers: the request ends only when its signal aborts (ky's timeout, the caller). */
export const hangingFetch: typeof globalThis.fetch = (_input, init) =>
  new Promise((_resolve, reject) => {
    const signal = init?.signal;
    signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
  });

/** A `fetch` that never settles and ignores its signal: only a timeout of the SDK's own ends the attempt. */
export const deafFetch: typeof globalThis.fetch = () => new Promise<Response>(() => {});

/** Runs `call` while moving the fake clock forward 500 ms at a time, up to `limitMs` of fake time. */
export async function settleWithClock<T>(call: Promise<T>, limitMs = 60 * 60_000): Promise<T> {
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

/** What `run` settled to (its value or its error) and the fake time it took. */
export async function timedOnClock<T>(run: () => Promise<T>) {
  const started = performance.now();
  const outcome = await settleWithClock(run()).then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...outcome, elapsedMs: performance.now() - started };
}
