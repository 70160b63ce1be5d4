/**
 * The service's `/v1` operations over the model: routing, authentication, rate limiting,
 * `Merchant-Id`, idempotency, body checks and the operation handlers.
 *
 * Choices where the spec is silent are documented on {@link handleApi} and in the module README of
 * `merchant-payments/testing` (see `index.ts`).
 *
 * @module
 */

import { errorResponse, json, type RawRequest, type RawResponse } from "./http.js";
import { MockServiceError } from "./model/errors.js";
import { canonicalJson, isObject } from "./model/json.js";
import { buyerFromData, FINAL_STATUSES, type MockModel } from "./model/store.js";
import type { MockCryptoSettlement, MockMerchantRecord, MockPaymentRecord, Mode } from "./model/types.js";
import { checkRequestedAmount } from "./model/validation.js";

/** Settings of the API layer (resolved service options). */
export interface ApiConfig {
  /** Current base URL (for `paymentLink` / `gatewayUrl`). */
  baseUrl: () => string;
  /** Service key prefix. */
  keyPrefix: string;
  /** Name of the version header. */
  versionHeader: string;
  /** Version echoed when none is pinned. */
  defaultVersion: string;
  /** `pollInMs` of non-final status results. */
  pollInMs: number;
  /** Per-credential budget, or null when off. */
  rateLimit: { limit: number; windowMs: number } | null;
}

interface Ctx {
  req: RawRequest;
  accountId: string;
  mode: Mode;
  params: string[];
  body: unknown;
}

type RouteName =
  | "listMerchants"
  | "createMerchant"
  | "getMerchant"
  | "listSettlements"
  | "createCrypto"
  | "updateCrypto"
  | "createPayment"
  | "paymentStatus"
  | "cancelPayment"
  | "createCheckout"
  | "checkoutStatus"
  | "gatewayFetch";

interface RouteDef {
  method: string;
  pattern: string[];
  name: RouteName;
  /** Payment operations need `Merchant-Id`. */
  merchantHeader: boolean;
}

const ROUTES: RouteDef[] = [
  { method: "GET", pattern: ["v1", "merchants"], name: "listMerchants", merchantHeader: false },
  { method: "POST", pattern: ["v1", "merchants"], name: "createMerchant", merchantHeader: false },
  { method: "GET", pattern: ["v1", "merchants", ":"], name: "getMerchant", merchantHeader: false },
  {
    method: "GET",
    pattern: ["v1", "merchants", ":", "settlements"],
    name: "listSettlements",
    merchantHeader: false,
  },
  {
    method: "POST",
    pattern: ["v1", "merchants", ":", "settlements", "crypto"],
    name: "createCrypto",
    merchantHeader: false,
  },
  {
    method: "PUT",
    pattern: ["v1", "merchants", ":", "settlements", "crypto", ":"],
    name: "updateCrypto",
    merchantHeader: false,
  },
  { method: "POST", pattern: ["v1", "payments"], name: "createPayment", merchantHeader: true },
  { method: "GET", pattern: ["v1", "payments", ":", "status"], name: "paymentStatus", merchantHeader: true },
  { method: "POST", pattern: ["v1", "payments", ":", "cancel"], name: "cancelPayment", merchantHeader: true },
  { method: "POST", pattern: ["v1", "merchant", "payment"], name: "createCheckout", merchantHeader: true },
  {
    method: "GET",
    pattern: ["v1", "merchant", "payment", ":", "status"],
    name: "checkoutStatus",
    merchantHeader: true,
  },
  {
    method: "POST",
    pattern: ["v1", "gateway", "payment", ":", "fetch"],
    name: "gatewayFetch",
    merchantHeader: false,
  },
];

function matchRoute(
  method: string,
  segments: string[],
): { route: RouteDef; params: string[] } | "method" | null {
  let pathMatched = false;
  for (const route of ROUTES) {
    if (route.pattern.length !== segments.length) continue;
    const params: string[] = [];
    let ok = true;
    for (let i = 0; i < segments.length; i++) {
      const p = route.pattern[i]!;
      const s = segments[i]!;
      if (p === ":") {
        if (s === "") {
          ok = false;
          break;
        }
        params.push(s);
      } else if (p !== s) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    pathMatched = true;
    if (route.method === method) return { route, params };
  }
  return pathMatched ? "method" : null;
}

const VERSION_RE = /^\d{4}-\d{2}-\d{2}(\.[A-Za-z0-9-]+)?$/;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function bad(message: string, field?: string): MockServiceError {
  return new MockServiceError(400, "invalid_request", message, field ? { field } : undefined);
}

function requireString(body: Record<string, unknown>, field: string, max = 255): string {
  const v = body[field];
  if (v === undefined || v === null) throw bad(`${field} is required.`, field);
  if (typeof v !== "string") throw bad(`${field} must be a string.`, field);
  if (v.trim() === "") throw bad(`${field} must not be empty.`, field);
  if (v.length > max) throw bad(`${field} must be at most ${max} characters.`, field);
  return v;
}

function requireObjectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) throw bad("A JSON object body is required.");
  if (!isObject(body)) throw bad("The body must be a JSON object.");
  return body;
}

/** Redacts an API key for the request log: `mock_test_***`, `mock_***` or `***`. */
export function redactKey(key: string, prefix: string): string {
  if (key.startsWith(`${prefix}_test_`)) return `${prefix}_test_***`;
  if (key.startsWith(`${prefix}_`)) return `${prefix}_***`;
  return "***";
}

function merchantWire(m: MockMerchantRecord): Record<string, unknown> {
  return {
    id: m.id,
    name: m.name,
    email: m.email,
    status: m.status,
    iconUrl: m.iconUrl,
    createdAt: new Date(m.createdAt).toISOString(),
    settlements: settlementsWire(m),
  };
}

function settlementsWire(m: MockMerchantRecord): { crypto: MockCryptoSettlement[]; fiat: unknown[] } {
  return {
    crypto: m.settlements.crypto.map((c) => ({ ...c })),
    fiat: m.settlements.fiat.map((f) => ({ ...f })),
  };
}

/** The status result of a payment (`isFinal` ⇔ final status; `pollInMs` null when final). */
export function statusWire(p: MockPaymentRecord, pollInMs: number): Record<string, unknown> {
  const isFinal = FINAL_STATUSES.has(p.status);
  const out: Record<string, unknown> = { status: p.status, isFinal, pollInMs: isFinal ? null : pollInMs };
  if (p.status === "succeeded" && p.info)
    out.info = { txId: p.info.txId, optionAmount: { ...p.info.optionAmount } };
  return out;
}

/** The portal URL of a payment. */
export function portalUrl(baseUrl: string, paymentId: string): string {
  return `${baseUrl}/portal/${encodeURIComponent(paymentId)}`;
}

/**
 * Answers one `/v1/...` request (or any non-control, non-portal path). Order of checks:
 * route (404 `not_found` / 405 `method_not_allowed`) → version header (400 `invalid_api_version`) →
 * credentials (401) → rate limit (429 `rate_limited`) → body (415 `unsupported_media_type`,
 * 400 `invalid_json`) → `Merchant-Id` (400 `missing_merchant_id`, 404, 403 `forbidden`) →
 * idempotency (400 `missing_idempotency_key` on merchant creation, 422 `idempotency_key_reused`,
 * replay) → operation.
 */
export function handleApi(model: MockModel, config: ApiConfig, req: RawRequest): RawResponse {
  const versionName = config.versionHeader.toLowerCase();
  const version = req.header(versionName);
  const baseHeaders: Record<string, string> = { [versionName]: version ?? config.defaultVersion };
  try {
    const segments = req.url.pathname.split("/").slice(1);
    let decoded: string[];
    try {
      decoded = segments.map((s) => decodeURIComponent(s));
    } catch {
      throw new MockServiceError(404, "not_found", "No such route.");
    }
    const match = matchRoute(req.method, decoded);
    if (match === null)
      throw new MockServiceError(404, "not_found", `No route for ${req.method} ${req.url.pathname}.`);
    if (match === "method") {
      throw new MockServiceError(
        405,
        "method_not_allowed",
        `${req.method} is not allowed on ${req.url.pathname}.`,
      );
    }
    if (version !== undefined && !VERSION_RE.test(version)) {
      throw new MockServiceError(
        400,
        "invalid_api_version",
        `${config.versionHeader} must be a date YYYY-MM-DD, optionally with a suffix such as .preview.`,
        { header: config.versionHeader, value: version },
      );
    }
    const { accountId, mode, credential } = authenticate(model, req);
    rateLimit(model, config, credential);
    const body = parseBody(req);
    const ctx: Ctx = { req, accountId, mode, params: match.params, body };

    let merchant: MockMerchantRecord | undefined;
    if (match.route.merchantHeader) {
      const merchantId = req.header("merchant-id");
      if (!merchantId) {
        throw new MockServiceError(
          400,
          "missing_merchant_id",
          "The Merchant-Id header is required for payment operations.",
          {
            header: "Merchant-Id",
          },
        );
      }
      merchant = resolveMerchant(model, ctx, merchantId);
    }

    // Idempotency: records are kept per account + mode + method + path + key. A replay with the same
    // body (and Merchant-Id) returns the original status and body with `Idempotent-Replayed: true`;
    // the same key with a different body is answered 422 `idempotency_key_reused` (Stripe's choice).
    // Only 2xx answers are stored: an error had no effect, so a retry runs the operation again.
    // `POST /v1/merchants` requires the key (400 `missing_idempotency_key`); elsewhere it is optional.
    const idemKey = req.header("idempotency-key");
    if (match.route.name === "createMerchant" && (idemKey === undefined || idemKey === "")) {
      throw new MockServiceError(
        400,
        "missing_idempotency_key",
        "POST /v1/merchants requires an Idempotency-Key header (a fresh UUID per merchant).",
        { header: "Idempotency-Key" },
      );
    }
    let idemScope: string | undefined;
    let fingerprint = "";
    if (idemKey !== undefined && (req.method === "POST" || req.method === "PUT")) {
      if (idemKey.trim() === "" || idemKey.length > 255) {
        throw new MockServiceError(
          400,
          "invalid_idempotency_key",
          "Idempotency-Key must be 1..255 characters.",
        );
      }
      idemScope = `${accountId}|${mode}|${req.method} ${req.url.pathname}|${idemKey}`;
      fingerprint = `${req.header("merchant-id") ?? ""}|${canonicalJson(body)}`;
      const existing = model.idempotency.get(idemScope);
      if (existing) {
        if (existing.fingerprint !== fingerprint) {
          throw new MockServiceError(
            422,
            "idempotency_key_reused",
            "This Idempotency-Key was already used with a different request body.",
            { idempotencyKey: idemKey },
          );
        }
        return {
          status: existing.status,
          headers: { "content-type": "application/json", ...baseHeaders, "idempotent-replayed": "true" },
          body: existing.body,
        };
      }
    }

    const res = run(model, config, match.route.name, ctx, merchant);
    Object.assign(res.headers, baseHeaders);
    if (idemScope !== undefined && res.status >= 200 && res.status < 300) {
      model.idempotency.set(idemScope, { fingerprint, status: res.status, body: res.body });
    }
    return res;
  } catch (err) {
    if (err instanceof MockServiceError) {
      const extra: Record<string, string> = { ...baseHeaders };
      if (err.status === 429 && typeof err.details?.retryAfterSeconds === "number") {
        extra["retry-after"] = String(err.details.retryAfterSeconds);
      }
      return errorResponse(err, extra);
    }
    const message = err instanceof Error ? err.message : String(err);
    return errorResponse(
      new MockServiceError(500, "internal_error", `Mock internal error: ${message}`),
      baseHeaders,
    );
  }
}

function authenticate(
  model: MockModel,
  req: RawRequest,
): { accountId: string; mode: Mode; credential: string } {
  const apiKey = req.header("api-key");
  if (apiKey !== undefined && apiKey !== "") {
    const cred = model.credentialForKey(apiKey);
    if (!cred) throw new MockServiceError(401, "invalid_api_key", "The API key is not valid.");
    return { ...cred, credential: `key:${apiKey}` };
  }
  const appId = req.header("app-id");
  if (appId !== undefined && appId !== "") {
    const clientId = req.header("client-id");
    if (clientId === undefined || clientId === "") {
      throw new MockServiceError(401, "missing_api_key", "App-Id requires the Client-Id header.", {
        header: "Client-Id",
      });
    }
    const app = model.appIds.get(appId);
    if (!app || app.clientId !== clientId) {
      throw new MockServiceError(401, "invalid_api_key", "The App-Id / Client-Id pair is not valid.");
    }
    return { accountId: app.accountId, mode: app.mode, credential: `app:${appId}` };
  }
  throw new MockServiceError(
    401,
    "missing_api_key",
    "No API key: send the Api-Key header (or App-Id with Client-Id).",
  );
}

function rateLimit(model: MockModel, config: ApiConfig, credential: string): void {
  const rl = config.rateLimit;
  if (!rl) return;
  const now = model.now();
  let w = model.rateWindows.get(credential);
  if (!w || now >= w.start + rl.windowMs) {
    w = { start: now, count: 0 };
    model.rateWindows.set(credential, w);
  }
  w.count++;
  if (w.count > rl.limit) {
    const retryAfterSeconds = Math.max(1, Math.ceil((w.start + rl.windowMs - now) / 1000));
    throw new MockServiceError(429, "rate_limited", "Too many requests for this API key; retry later.", {
      retryAfterSeconds,
    });
  }
}

function parseBody(req: RawRequest): unknown {
  if (req.body === "" || req.method === "GET") return undefined;
  const type = req.header("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new MockServiceError(
      415,
      "unsupported_media_type",
      "Request bodies must be JSON (Content-Type: application/json).",
    );
  }
  try {
    return JSON.parse(req.body) as unknown;
  } catch (err) {
    throw new MockServiceError(400, "invalid_json", "The request body is not valid JSON.", {
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

function resolveMerchant(model: MockModel, ctx: Ctx, id: string): MockMerchantRecord {
  const m = model.merchants.get(id);
  if (!m || (m.accountId === ctx.accountId && m.mode !== ctx.mode)) {
    throw new MockServiceError(404, "not_found", `No such merchant: ${id}.`, { merchantId: id });
  }
  if (m.accountId !== ctx.accountId) {
    throw new MockServiceError(
      403,
      "forbidden",
      "This API key has no permission for that merchant's account.",
    );
  }
  return m;
}

function resolvePayment(
  model: MockModel,
  ctx: Ctx,
  id: string,
  merchant?: MockMerchantRecord,
): MockPaymentRecord {
  const p = model.payments.get(id);
  const notFound = new MockServiceError(404, "not_found", `No such payment: ${id}.`, { paymentId: id });
  if (!p) throw notFound;
  if (p.accountId !== ctx.accountId) {
    throw new MockServiceError(
      403,
      "forbidden",
      "This API key has no permission for that payment's account.",
    );
  }
  if (p.mode !== ctx.mode || (merchant && p.merchantId !== merchant.id)) throw notFound;
  model.refresh(p);
  return p;
}

function paymentInput(merchant: MockMerchantRecord, body: Record<string, unknown>) {
  if (merchant.status !== "active") {
    throw new MockServiceError(409, "merchant_not_active", `Merchant ${merchant.id} is ${merchant.status}.`);
  }
  const referenceId = requireString(body, "referenceId");
  if (body.amount === undefined) throw bad("amount is required.", "amount");
  const amount = checkRequestedAmount(body.amount);
  if (typeof amount === "string") throw bad(`amount: ${amount}.`, "amount");
  return { referenceId, amount: { unit: `iso4217/${amount.currency}`, value: amount.value } };
}

function run(
  model: MockModel,
  config: ApiConfig,
  name: RouteName,
  ctx: Ctx,
  merchant: MockMerchantRecord | undefined,
): RawResponse {
  const p0 = ctx.params[0] ?? "";
  switch (name) {
    case "listMerchants": {
      const data: Record<string, unknown>[] = [];
      for (const m of model.merchants.values()) {
        if (m.accountId === ctx.accountId && m.mode === ctx.mode) data.push(merchantWire(m));
      }
      return json(200, { data });
    }
    case "createMerchant": {
      const body = requireObjectBody(ctx.body);
      const name = requireString(body, "merchantName", 200);
      const email = requireString(body, "merchantEmail", 320);
      if (!EMAIL_RE.test(email)) throw bad("merchantEmail must be an e-mail address.", "merchantEmail");
      const m = model.createMerchant(ctx.accountId, ctx.mode, { name, email });
      return json(201, {
        merchant: {
          id: m.id,
          name: m.name,
          email: m.email,
          status: m.status,
          createdAt: new Date(m.createdAt).toISOString(),
        },
      });
    }
    case "getMerchant":
      return json(200, { merchant: merchantWire(resolveMerchant(model, ctx, p0)) });
    case "listSettlements":
      return json(200, settlementsWire(resolveMerchant(model, ctx, p0)));
    case "createCrypto": {
      const m = resolveMerchant(model, ctx, p0);
      const body = requireObjectBody(ctx.body);
      const list = body.settlements;
      if (!Array.isArray(list) || list.length === 0) {
        throw bad("settlements must be a non-empty array of { asset, destination }.", "settlements");
      }
      if (list.length > 50) throw bad("settlements must hold at most 50 items.", "settlements");
      const items = list.map((item, i) => {
        if (!isObject(item)) throw bad(`settlements[${i}] must be an object.`, `settlements[${i}]`);
        return { asset: item.asset, destination: item.destination };
      });
      const created = model.addCryptoSettlements(m, items);
      return json(201, { crypto: created.map((c) => ({ ...c })) });
    }
    case "updateCrypto": {
      const m = resolveMerchant(model, ctx, p0);
      const body = requireObjectBody(ctx.body);
      if (body.destination === undefined) throw bad("destination is required.", "destination");
      const s = model.updateCryptoSettlement(m, ctx.params[1] ?? "", body.destination);
      return json(200, { ...s });
    }
    case "createPayment": {
      const body = requireObjectBody(ctx.body);
      const input = paymentInput(merchant!, body);
      const p = model.createPayment({ merchant: merchant!, ...input, flow: "direct", checkout: null });
      return json(201, {
        id: p.id,
        paymentLink: portalUrl(config.baseUrl(), p.id),
        status: p.status,
        referenceId: p.referenceId,
        amount: { ...p.amount },
        expiresAt: new Date(p.expiresAt).toISOString(),
      });
    }
    case "createCheckout": {
      const body = requireObjectBody(ctx.body);
      const input = paymentInput(merchant!, body);
      const checkout = body.checkout;
      if (checkout !== undefined && checkout !== null && !isObject(checkout)) {
        throw bad("checkout must be an object with successUrl and errorUrl.", "checkout");
      }
      const p = model.createPayment({
        merchant: merchant!,
        ...input,
        flow: "checkout",
        checkout: checkout ?? null,
      });
      return json(201, { paymentId: p.id, gatewayUrl: portalUrl(config.baseUrl(), p.id) });
    }
    case "paymentStatus":
    case "checkoutStatus":
      return json(200, statusWire(resolvePayment(model, ctx, p0, merchant), config.pollInMs));
    case "cancelPayment": {
      const p = model.transition(resolvePayment(model, ctx, p0, merchant), "cancelled");
      return json(200, {
        cancelledAt: new Date(p.cancelledAt ?? model.now()).toISOString(),
        cancelledReason: "cancelled_by_merchant",
        paymentId: p.id,
        status: "cancelled",
      });
    }
    case "gatewayFetch": {
      const p = resolvePayment(model, ctx, p0);
      const body = ctx.body === undefined ? {} : requireObjectBody(ctx.body);
      const optionId = body.optionId;
      if (optionId !== undefined && optionId !== null && typeof optionId !== "string") {
        throw bad("optionId must be a string.", "optionId");
      }
      const buyer = buyerFromData(body.data);
      if (buyer instanceof MockServiceError) throw buyer;
      const action = model.buildAction(p, optionId ?? undefined, buyer);
      return json(200, { actions: [action] });
    }
  }
}
