/**
 * The chain every `/v1` route passes through, in order: version header → credentials → rate limit →
 * body → `Merchant-Id` → idempotency. Each step reads the request, fills the context or throws a
 * {@link MockServiceError}; the idempotency step may answer a replay instead.
 *
 * @module
 */

import { API_VERSION_RE } from "../../validate/rules.js";
import type { RawRequest, RawResponse } from "../http.js";
import { MockServiceError } from "../model/errors.js";
import { canonicalJson } from "../model/json.js";
import type { MockModel } from "../model/store.js";
import type { MockMerchantRecord, MockMode } from "../model/types.js";

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

/** Who may call a route: any credential of the account, or one naming a merchant in `Merchant-Id`. */
export type ApiScope = "account" | "merchant";

/** Whether a route takes an `Idempotency-Key`: required, optional, or not at all (reads). */
export type IdempotencyUse = "required" | "optional" | "none";

/** What a route declares to the chain. */
export interface ApiRouteRules {
  /** `merchant`: `Merchant-Id` is required and resolved into `context.merchant`. */
  readonly scope: ApiScope;
  /** Idempotency of the route. */
  readonly idempotency: IdempotencyUse;
}

/** What a route's handler receives. */
export interface ApiContext {
  /** The model. */
  model: MockModel;
  /** The API settings. */
  config: ApiConfig;
  /** The request. */
  req: RawRequest;
  /** Decoded path parameters. */
  params: Record<string, string>;
  /** The caller's account. */
  accountId: string;
  /** The caller's mode. */
  mode: MockMode;
  /** Which credential called (the rate-limit key). */
  credential: string;
  /** The parsed JSON body, or undefined. */
  body: unknown;
  /** The merchant named by `Merchant-Id` (routes of scope `merchant`). */
  merchant: MockMerchantRecord | undefined;
  /** Where the answer is kept for replays, when the request carries an idempotency key. */
  idempotency: { scope: string; fingerprint: string } | undefined;
}

/** A step of the chain: fills the context, throws, or answers (a replay). */
type Step = (context: ApiContext, rules: ApiRouteRules) => RawResponse | undefined;

function checkVersion({ config, req }: ApiContext): undefined {
  const version = req.header(config.versionHeader.toLowerCase());
  if (version === undefined || API_VERSION_RE.test(version)) return undefined;
  throw new MockServiceError(
    400,
    "invalid_api_version",
    `${config.versionHeader} must be a date YYYY-MM-DD, optionally with a suffix such as .preview.`,
    { header: config.versionHeader, value: version },
  );
}

function authenticate(context: ApiContext): undefined {
  const { model, req } = context;
  const apiKey = req.header("api-key");
  if (apiKey !== undefined && apiKey !== "") {
    const cred = model.credentialForKey(apiKey);
    if (!cred) throw new MockServiceError(401, "invalid_api_key", "The API key is not valid.");
    Object.assign(context, { accountId: cred.accountId, mode: cred.mode, credential: `key:${apiKey}` });
    return undefined;
  }
  const appId = req.header("app-id");
  if (appId === undefined || appId === "") {
    throw new MockServiceError(
      401,
      "missing_api_key",
      "No API key: send the Api-Key header (or App-Id with Client-Id).",
    );
  }
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
  Object.assign(context, { accountId: app.accountId, mode: app.mode, credential: `app:${appId}` });
  return undefined;
}

function rateLimit({ model, config, credential }: ApiContext): undefined {
  const rl = config.rateLimit;
  if (!rl) return undefined;
  const now = model.now();
  let w = model.rateWindows.get(credential);
  if (!w || now >= w.start + rl.windowMs) {
    w = { start: now, count: 0 };
    model.rateWindows.set(credential, w);
  }
  w.count++;
  if (w.count <= rl.limit) return undefined;
  const retryAfterSeconds = Math.max(1, Math.ceil((w.start + rl.windowMs - now) / 1000));
  throw new MockServiceError(429, "rate_limited", "Too many requests for this API key; retry later.", {
    retryAfterSeconds,
  });
}

function readBody(context: ApiContext): undefined {
  const { req } = context;
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
    context.body = JSON.parse(req.body) as unknown;
  } catch (err) {
    throw new MockServiceError(400, "invalid_json", "The request body is not valid JSON.", {
      error: err instanceof Error ? err.message : String(err),
    });
  }
  return undefined;
}

/** The merchant `id` as the caller may see it: 404 when unknown or in the other mode, 403 for another account's. */
export function resolveMerchant(context: ApiContext, id: string): MockMerchantRecord {
  const m = context.model.merchants.get(id);
  if (!m || (m.accountId === context.accountId && m.mode !== context.mode)) {
    throw new MockServiceError(404, "not_found", `No such merchant: ${id}.`, { merchantId: id });
  }
  if (m.accountId !== context.accountId) {
    throw new MockServiceError(
      403,
      "forbidden",
      "This API key has no permission for that merchant's account.",
    );
  }
  return m;
}

function merchantHeader(context: ApiContext, rules: ApiRouteRules): undefined {
  if (rules.scope !== "merchant") return undefined;
  const merchantId = context.req.header("merchant-id");
  if (!merchantId) {
    throw new MockServiceError(
      400,
      "missing_merchant_id",
      "The Merchant-Id header is required for payment operations.",
      { header: "Merchant-Id" },
    );
  }
  context.merchant = resolveMerchant(context, merchantId);
  return undefined;
}

// Records are kept per account + mode + method + path + key. A replay with the same body (and Merchant-Id)
// returns the original status and body with `Idempotent-Replayed: true`; the same key with a different body
// is answered 422 `idempotency_key_reused` (Stripe's choice). Only 2xx answers are stored: an error had no
// effect, so a retry runs the operation again.
function idempotency(context: ApiContext, rules: ApiRouteRules): RawResponse | undefined {
  const { req, model } = context;
  const key = req.header("idempotency-key");
  if (rules.idempotency === "required" && (key === undefined || key === "")) {
    throw new MockServiceError(
      400,
      "missing_idempotency_key",
      `${req.method} ${req.url.pathname} requires an Idempotency-Key header (a fresh UUID per operation).`,
      { header: "Idempotency-Key" },
    );
  }
  if (key === undefined || rules.idempotency === "none") return undefined;
  if (key.trim() === "" || key.length > 255) {
    throw new MockServiceError(400, "invalid_idempotency_key", "Idempotency-Key must be 1..255 characters.");
  }
  const scope = `${context.accountId}|${context.mode}|${req.method} ${req.url.pathname}|${key}`;
  const fingerprint = `${req.header("merchant-id") ?? ""}|${canonicalJson(context.body)}`;
  context.idempotency = { scope, fingerprint };
  const existing = model.idempotency.get(scope);
  if (!existing) return undefined;
  if (existing.fingerprint !== fingerprint) {
    throw new MockServiceError(
      422,
      "idempotency_key_reused",
      "This Idempotency-Key was already used with a different request body.",
      { idempotencyKey: key },
    );
  }
  return {
    status: existing.status,
    headers: { "content-type": "application/json", "idempotent-replayed": "true" },
    body: existing.body,
  };
}

/** The chain, in order. */
export const API_CHAIN: readonly Step[] = [
  checkVersion,
  authenticate,
  rateLimit,
  readBody,
  merchantHeader,
  idempotency,
];

/** Keeps a 2xx answer for replays of the same idempotency key. */
export function rememberAnswer(context: ApiContext, res: RawResponse): void {
  if (context.idempotency === undefined || res.status < 200 || res.status >= 300) return;
  const { scope, fingerprint } = context.idempotency;
  context.model.idempotency.set(scope, { fingerprint, status: res.status, body: res.body });
}
