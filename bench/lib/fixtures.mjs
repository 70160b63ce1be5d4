// The ids, key and headers every benchmark sends: the same request in each variant, so ratios compare like with like.
export const API_KEY = "mock_test_WMPYExts3b7szIKpRmvqLH61L3xuBM9M";
export const MERCHANT_ID = "mrch_I4s7kOqI5aHkmL6cL1eHgPTx";
export const PAYMENT_ID = "pay_gE4K0FQ33S2rDKWyPDWCQfR0";
export const API_VERSION = "2026-02-19.preview";

/** The SDK client's options of every benchmark, beside the `fetch` or `baseUrl` each one gives. */
export const CLIENT_OPTIONS = {
  apiKey: API_KEY,
  merchantId: MERCHANT_ID,
  versionHeader: "Mock-Version",
  apiVersion: API_VERSION,
};

/** The headers the SDK sends on a payment operation, for the hand-written variants. */
export const HEADERS = {
  accept: "application/json",
  "user-agent": "merchant-payments/0.1.0",
  "api-key": API_KEY,
  "mock-version": API_VERSION,
  "merchant-id": MERCHANT_ID,
};

/** The headers of an answer read from memory. */
export const ANSWER_HEADERS = {
  "content-type": "application/json",
  "request-id": "req_TuuqNE4UYbMooDqpS2tb",
};

/** The body of the benches' `payments.create()` (and of the floors' POST). */
export const CREATE_INPUT = { referenceId: "order-0000042", amount: { unit: "iso4217/USD", value: "1999" } };
