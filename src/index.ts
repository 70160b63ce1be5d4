/**
 * merchant-payments: the typed client of the Merchant Payments Service.
 *
 * @module merchant-payments
 */
export { MerchantPaymentsClient } from "./client.js";
export { APIPromise, type ResponseInfo, type WithRequestId } from "./core/api-promise.js";
export { REQUEST_ID_HEADERS } from "./core/headers.js";
export type {
  ClientOptions,
  Credentials,
  DriftEvent,
  Hooks,
  Logger,
  LogLevel,
  LogRecord,
  Mode,
  RequestEvent,
  ResponseEvent,
  ResponseValidation,
  RetryEvent,
} from "./core/options.js";
export type { RequestOptions } from "./core/request-options.js";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./core/retry.js";
export type {
  MeterProviderLike,
  TelemetryOption,
  TelemetryOptions,
  TracerProviderLike,
} from "./core/telemetry/options.js";
export type { CustomOperation, CustomResult } from "./custom-operations.js";
export type { HttpMethod } from "./operations.js";
export * from "./errors.js";
// Plain values only: importing the SDK never loads zod (the schemas are loaded with the first call).
export { unknownField } from "./model/fields.js";
export { isWalletRpcAction } from "./model/gateway.js";
export { MERCHANT_STATUSES } from "./model/merchants.js";
export {
  findWalletLink,
  isFinalPaymentStatus,
  isFulfillable,
  isTerminalPaymentStatus,
  PAYMENT_STATUSES,
  TERMINAL_PAYMENT_STATUSES,
  WALLET_LINK_FIELDS,
} from "./model/payments.js";
export {
  currencyDigits,
  type FiatAmount,
  fromMinorUnits,
  type MoneyOptions,
  money,
  toMinorUnits,
} from "./money.js";
export type {
  Checkout,
  CheckoutNextStep,
  CheckoutOutcome,
  ReturnQuery,
  VerifyReturnParams,
} from "./resources/checkout.js";
export type { Gateway } from "./resources/gateway.js";
export type { Merchants } from "./resources/merchants.js";
export type { Payments } from "./resources/payments.js";
export type { PollingResource, PollOptions } from "./resources/polling.js";
export type { Settlements } from "./resources/settlements.js";
export type {
  Action,
  Amount,
  AmountInput,
  Caip2Parts,
  Caip10Parts,
  Caip19Parts,
  CancellationResult,
  CheckoutWithoutRedirectsInput,
  CheckoutWithRedirectsInput,
  CreateCheckoutInput,
  CreateCheckoutResponse,
  CreateCryptoSettlementsInput,
  CreateCryptoSettlementsResponse,
  CreatedMerchant,
  CreateMerchantInput,
  CreatePaymentInput,
  CreatePaymentResponse,
  CryptoSettlement,
  CryptoSettlementInput,
  FetchActionInput,
  FetchActionResponse,
  FiatSettlement,
  Iso4217AmountInput,
  JsonObject,
  JsonValue,
  KnownPaymentStatus,
  ListMerchantsQuery,
  ListMerchantsResponse,
  Merchant,
  MerchantListItem,
  MerchantSettlements,
  MerchantStatus,
  OpenEnum,
  PaymentInfo,
  PaymentStatus,
  PaymentStatusResult,
  SettlementsList,
  TerminalPaymentStatus,
  TypedData,
  TypedDataDomain,
  TypedDataField,
  TypedDataQuantities,
  UnknownAction,
  UpdateCryptoSettlementInput,
  UpdateCryptoSettlementResponse,
  WalletRpcAction,
  WalletRpcActionRaw,
  WalletRpcData,
  WalletRpcDecodedView,
} from "./schemas/index.js";
export { parseCaip10, parseCaip19 } from "./validate/rules.js";
export { SDK_VERSION } from "./version.js";
