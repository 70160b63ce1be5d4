/**
 * The service's `/v1` routes as data: method, path pattern, scope, idempotency and handler. The SDK's operations
 * table is held against this one by a test, so the SDK and the mock cannot disagree on a route.
 *
 * Choices where the spec is silent are documented in the module README of `merchant-payments/testing`
 * (see `index.ts`).
 *
 * @module
 */

import type { RawResponse } from "../http.js";
import type { Route } from "../routes.js";
import type { ApiContext, ApiRouteRules } from "./chain.js";
import * as op from "./operations.js";

/** A `/v1` route: what the chain needs to know, and the handler. */
export interface ApiRoute extends Route<ApiContext>, ApiRouteRules {
  /** Answers the request once the chain passed. */
  readonly handle: (context: ApiContext) => RawResponse;
}

const merchantRoute = { scope: "merchant", idempotency: "optional" } as const;
const read = { scope: "account", idempotency: "none" } as const;
const write = { scope: "account", idempotency: "optional" } as const;

/** Every `/v1` route of the service interface. */
export const API_ROUTES: readonly ApiRoute[] = [
  { method: "GET", path: "/v1/merchants", ...read, handle: op.listMerchants },
  // A merchant created twice is a second merchant: the key is required.
  {
    method: "POST",
    path: "/v1/merchants",
    scope: "account",
    idempotency: "required",
    handle: op.createMerchant,
  },
  { method: "GET", path: "/v1/merchants/:merchantId", ...read, handle: op.getMerchant },
  { method: "GET", path: "/v1/merchants/:merchantId/settlements", ...read, handle: op.listSettlements },
  { method: "POST", path: "/v1/merchants/:merchantId/settlements/crypto", ...write, handle: op.createCrypto },
  {
    method: "PUT",
    path: "/v1/merchants/:merchantId/settlements/crypto/:settlementId",
    ...write,
    handle: op.updateCrypto,
  },
  { method: "POST", path: "/v1/payments", ...merchantRoute, handle: op.createPayment },
  {
    method: "GET",
    path: "/v1/payments/:paymentId/status",
    scope: "merchant",
    idempotency: "none",
    handle: op.paymentStatus,
  },
  { method: "POST", path: "/v1/payments/:paymentId/cancel", ...merchantRoute, handle: op.cancelPayment },
  { method: "POST", path: "/v1/merchant/payment", ...merchantRoute, handle: op.createCheckout },
  {
    method: "GET",
    path: "/v1/merchant/payment/:paymentId/status",
    scope: "merchant",
    idempotency: "none",
    handle: op.paymentStatus,
  },
  { method: "POST", path: "/v1/gateway/payment/:paymentId/fetch", ...write, handle: op.gatewayFetch },
];
