/**
 * The service's `/v1` routes as data (method, path pattern, scope, idempotency, handler) and the one
 * function that answers a routed request: the chain of `api/chain.ts`, then the route's handler.
 *
 * Choices where the spec is silent are documented in the module README of `merchant-payments/testing`
 * (see `index.ts`).
 *
 * @module
 */

import {
  API_CHAIN,
  type ApiConfig,
  type ApiContext,
  type ApiRouteRules,
  rememberAnswer,
} from "./api/chain.js";
import * as op from "./api/operations.js";
import { errorResponse, type RawRequest, type RawResponse } from "./http.js";
import { MockServiceError } from "./model/errors.js";
import type { MockModel } from "./model/store.js";
import type { Route, RouteMatch } from "./routes.js";

export type { ApiConfig } from "./api/chain.js";
export { redactKey } from "./api/wire.js";

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

/** The error answer of a request no route takes: 404 `not_found`, or 405 when the path exists. */
export function unroutedApi(req: RawRequest, found: "method" | null): MockServiceError {
  if (found === "method") {
    return new MockServiceError(
      405,
      "method_not_allowed",
      `${req.method} is not allowed on ${req.url.pathname}.`,
    );
  }
  return new MockServiceError(404, "not_found", `No route for ${req.method} ${req.url.pathname}.`);
}

/** Headers of every API answer: the version pinned by the request, or the default one. */
function versionHeaders(config: ApiConfig, req: RawRequest): Record<string, string> {
  const name = config.versionHeader.toLowerCase();
  return { [name]: req.header(name) ?? config.defaultVersion };
}

/** Answers an API error (with `Retry-After` on a 429). */
export function apiError(config: ApiConfig, req: RawRequest, err: unknown): RawResponse {
  const headers = versionHeaders(config, req);
  if (!(err instanceof MockServiceError)) {
    const message = err instanceof Error ? err.message : String(err);
    return errorResponse(
      new MockServiceError(500, "internal_error", `Mock internal error: ${message}`),
      headers,
    );
  }
  if (err.status === 429 && typeof err.details?.retryAfterSeconds === "number") {
    headers["retry-after"] = String(err.details.retryAfterSeconds);
  }
  return errorResponse(err, headers);
}

/** Answers a routed `/v1` request: the chain, then the route's handler. */
export function handleApi(
  model: MockModel,
  config: ApiConfig,
  req: RawRequest,
  match: RouteMatch<ApiRoute>,
): RawResponse {
  const context: ApiContext = {
    model,
    config,
    req,
    params: match.params,
    accountId: "",
    mode: "test",
    credential: "",
    body: undefined,
    merchant: undefined,
    idempotency: undefined,
  };
  try {
    let res: RawResponse | undefined;
    for (const step of API_CHAIN) {
      res = step(context, match.route);
      if (res !== undefined) break;
    }
    if (res === undefined) {
      res = match.route.handle(context);
      rememberAnswer(context, res);
    }
    Object.assign(res.headers, versionHeaders(config, req));
    return res;
  } catch (err) {
    return apiError(config, req, err);
  }
}
