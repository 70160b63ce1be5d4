import { type ClientOptions, MerchantPaymentsClient } from "../../src/index.js";
import type { MockService } from "../../src/testing/index.js";
import { BASE_URL, TEST_KEY } from "./recording-server.js";

/** Retry delays short enough for tests. */
export const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 20 };

/** The merchant id that merchant-scoped clients of the resource tests are built with. */
export const DEFAULT_MERCHANT_ID = "mrch_default";

/** A mock service a test client can talk to (in process, or `server.service` of `startMockServer`). */
export type MockTarget = Pick<MockService, "keys" | "baseUrl" | "merchantId">;

/**
 * The one way tests build a client. `testClient(options)`: a client of the recording server (test key,
 * {@link BASE_URL}, {@link FAST_RETRY}). `testClient(mock, options)`: a client of the mock's default account (its
 * test key, base URL and merchant, {@link FAST_RETRY}). `options` override these.
 */
export function testClient(options?: ClientOptions): MerchantPaymentsClient;
export function testClient(mock: MockTarget, options?: ClientOptions): MerchantPaymentsClient;
export function testClient(
  first: ClientOptions | MockTarget = {},
  options: ClientOptions = {},
): MerchantPaymentsClient {
  if (isMockTarget(first)) {
    return new MerchantPaymentsClient({
      apiKey: first.keys.test,
      baseUrl: first.baseUrl,
      merchantId: first.merchantId,
      retry: FAST_RETRY,
      ...options,
    });
  }
  return new MerchantPaymentsClient({ apiKey: TEST_KEY, baseUrl: BASE_URL, retry: FAST_RETRY, ...first });
}

function isMockTarget(value: ClientOptions | MockTarget): value is MockTarget {
  return "keys" in value && "merchantId" in value && typeof value.baseUrl === "string";
}
