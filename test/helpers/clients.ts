import { type ClientOptions, MerchantPaymentsClient } from "../../src/index.js";
import { BASE_URL, TEST_KEY } from "./recording-server.js";

/** Retry delays short enough for tests. */
export const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 20 };

/** The merchant id that merchant-scoped clients of the resource tests are built with. */
export const DEFAULT_MERCHANT_ID = "mrch_default";

/** A client of the recording server: test key, {@link BASE_URL}, {@link FAST_RETRY}; `options` override these. */
export function testClient(options: ClientOptions = {}): MerchantPaymentsClient {
  return new MerchantPaymentsClient({ apiKey: TEST_KEY, baseUrl: BASE_URL, retry: FAST_RETRY, ...options });
}
