/**
 * The schemas and helpers the operations use, and only those: the module `load.ts` imports with the first call (a
 * dynamically imported module keeps every export it has in a bundle, so only what a call uses is named here).
 *
 * @module
 */
export {
  checkoutStatusResultSchema,
  createCheckoutResponseSchema,
  toCreateCheckoutBody,
} from "./checkout.js";
export { fetchActionSchema, toFetchActionBody } from "./gateway.js";
export { parseInput } from "./input.js";
export {
  createMerchantResponseSchema,
  listMerchantsQuerySchema,
  listMerchantsResponseSchema,
  retrieveMerchantResponseSchema,
  toCreateMerchantBody,
} from "./merchants.js";
export { readResponse } from "./parse.js";
export {
  cancellationResultSchema,
  createPaymentResponseSchema,
  paymentStatusResultSchema,
  toCreatePaymentBody,
} from "./payments.js";
export {
  createCryptoSettlementsResponseSchema,
  settlementsListSchema,
  toCreateCryptoSettlementsBody,
  toUpdateCryptoSettlementBody,
  updateCryptoSettlementResponseSchema,
} from "./settlements.js";
export { anyJsonSchema, toJsonBody } from "./custom.js";
export { flatQuerySchema } from "./common.js";
