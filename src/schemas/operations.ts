/**
 * What the operations need of the schemas, and nothing else: the module `load.ts` loads with the first call. Only
 * these names: a dynamically imported module keeps every export it has in a bundle (its namespace object can be read
 * whole), so the schemas' full index here would carry schemas no call uses.
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
