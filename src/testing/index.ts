/**
 * `merchant-payments/testing`: a faithful, stateful, in-memory mock of the Merchant Payments Service,
 * usable as a fetch function (`createMockService().fetch`), as a local HTTP server (`startMockServer`,
 * CLI `merchant-payments-mock`), or through MSW handlers (`merchant-payments/testing/msw`, the only
 * entry that needs msw).
 *
 * It is an independent implementation of the service interface. Where the interface is silent, the
 * mock chooses (and the SDK must not depend on these beyond what the spec says):
 *
 * - Keys: test `<prefix>_test_…`, live `<prefix>_…` (prefix `mock` by default); App-Id + Client-Id
 *   pairs per mode. App-Id without Client-Id → 401 `missing_api_key`.
 * - 403 code `forbidden` (valid key, other account's merchant/payment). Unknown or other-mode → 404 `not_found`.
 * - 400 codes: `invalid_json`, `invalid_request` (details.field), `missing_merchant_id`,
 *   `missing_idempotency_key`, `invalid_idempotency_key`, `invalid_api_version`, `invalid_option_id`;
 *   415 `unsupported_media_type`; 405 `method_not_allowed`.
 * - Idempotency: per account+mode+method+path+key; replay → original status/body with
 *   `Idempotent-Replayed: true`; different body → 422 `idempotency_key_reused`; only 2xx stored.
 *   `POST /v1/merchants` without a key → 400 `missing_idempotency_key`.
 * - Creations answer 201; `POST .../settlements/crypto` → `{ crypto: [created] }`; `PUT .../crypto/{id}`
 *   (`{ destination }`) → the settlement; `409 settlement_asset_conflict` (atomic: nothing created).
 * - `POST /v1/payments` → `{ id, paymentLink, status, referenceId, amount, expiresAt }`; `paymentLink`
 *   is the portal URL. `POST /v1/merchant/payment` → `{ paymentId, gatewayUrl }`.
 * - Payment option id = crypto settlement id of the merchant (`crypto_…`); default the first.
 * - Cancel of a final payment → 409 `payment_not_cancellable`; gateway fetch on a non-`requires_action`
 *   payment → 409 `payment_not_actionable`; merchant without settlements → 409 `no_payment_options`.
 * - `rate_limited` is a 429 with `Retry-After` (seconds).
 * - Every answer (404, 405, control endpoints, pages and the server's own refusals included) has
 *   `Request-Id: req_…` and the version header echoing the pinned (or default) version.
 * - Redirect URLs: https; `http://` loopback unless `allowLoopbackRedirects: false`; any `http://` for test-mode
 *   payments under `allowInsecureHttp` (the SDK's rule with a test key); anything else turns redirects off.
 * - Token amounts of payment options use the mock's own fixed fiat → USD rates (`1 JPY = 0.0067 USD`, each
 *   token worth 1 USD), never a market price; the portal says so.
 * - Served over HTTP, links point to `publicUrl`, else to the origin the request's (allowed) `Host` names.
 *   The CLI and its seed file are described in docs/mock.md.
 *
 * @module merchant-payments/testing
 */

import { createMockServiceCore, type MockService, type MockServiceOptions } from "./service.js";

export type { MockFaultHandle, MockFaultSpec, MockFaultType } from "./faults.js";
export { type MockServer, type MockServerOptions, startMockServer } from "./server.js";
export {
  DEFAULT_CONTROL_PREFIX,
  DEFAULT_MOCK_BASE_URL,
  MOCK_DEFAULT_VERSION,
  type MockService,
  type MockServiceOptions,
  type MockStateSnapshot,
  type SimulateBuyerOptions,
} from "./service.js";
export { MockServiceError } from "./store/errors.js";
export { MOCK_BUYER_ADDRESS, type MockPaymentOption } from "./store/options.js";
export type {
  MockSeed,
  MockSeedAccount,
  MockSeedCryptoSettlement,
  MockSeedFiatSettlement,
  MockSeedMerchant,
} from "./store/seed.js";
export { DEFAULT_DESTINATION_ADDRESS, DEFAULT_LIVE_ASSET, DEFAULT_TEST_ASSET } from "./store/seed.js";
export type { MockTokenInfo } from "./store/tokens.js";
export type { MockWalletRpcAction, ReceiveWithAuthorizationTypedData } from "./store/typed-data.js";
export type {
  MockAccountInfo,
  MockAccountKeys,
  MockAmount,
  MockAppCredentials,
  MockCryptoSettlement,
  MockFiatSettlement,
  MockMerchantRecord,
  MockMerchantStatus,
  MockMode,
  MockPaymentInfo,
  MockPaymentRecord,
  MockPaymentStatus,
  MockRequestLogEntry,
} from "./store/types.js";

/**
 * Creates the mock service, in process: `service.fetch` is a `fetch` answered by the mock (pass it to the
 * client's `fetch` option). With no options it has one account (keys in `service.keys`) with a test-mode
 * merchant (`service.merchantId`) and a live-mode merchant (`service.liveMerchantId`), each with a USDC
 * settlement, answering on `https://mock.merchant-payments.test`. For MSW handlers, import the same
 * function from `merchant-payments/testing/msw`; for a real port, {@link startMockServer}.
 *
 * @example
 * ```ts
 * const mock = createMockService();
 * const res = await mock.fetch(`${mock.baseUrl}/v1/merchants`, { headers: { "Api-Key": mock.keys.test } });
 * ```
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  return createMockServiceCore(options).service;
}
