/**
 * merchant-payments: the typed client of the Merchant Payments Service.
 *
 * @packageDocumentation
 */
export { MerchantPaymentsClient } from "./client.js";
export type {
  ClientOptions,
  Credentials,
  Hooks,
  Logger,
  Mode,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
} from "./core/config.js";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./core/retry.js";
export type { RequestOptions } from "./core/transport.js";
export * from "./errors.js";
export type { ListMerchantsQuery, Merchants } from "./resources/merchants.js";
export type { Settlements } from "./resources/settlements.js";
export { SDK_VERSION } from "./version.js";
