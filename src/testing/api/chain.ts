/**
 * What every `/v1` route passes through before its handler, in order: version header → credentials → rate limit →
 * body → `Merchant-Id` → idempotency. Each step returns what it found (or throws a {@link MockServiceError}); the
 * context a handler gets is built from their results at once. The idempotency step may answer a replay instead.
 *
 * @module
 */

import { API_VERSION_RE } from "../../validate/rules.js";
import { type RawRequest, type RawResponse, readJsonBody } from "../http.js";
import type { Credential } from "../store/accounts.js";
import { MockServiceError } from "../store/errors.js";
import { canonicalJson } from "../store/json.js";
import type { MockModel } from "../store/state.js";
import type { MockMerchantRecord } from "../store/types.js";

/** Settings of the API layer (resolved service options). */
export interface ApiConfig {
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

/** The authenticated caller: its account and mode, and the credential that called (the rate-limit key). */
export interface Caller extends Credential {
  /** `key:<api key>` or `app:<app id>`. */
  credential: string;
}

/** What a route's handler receives. */
export interface ApiContext {
  /** The model. */
  readonly model: MockModel;
  /** The API settings. */
  readonly config: ApiConfig;
  /** The request. */
  readonly req: RawRequest;
  /** Where `paymentLink` and `gatewayUrl` point. */
  readonly linkBase: string;
  /** Decoded path parameters. */
  readonly params: Record<string, string>;
  /** Who called. */
  readonly caller: Caller;
  /** The parsed JSON body, or undefined. */
  readonly body: unknown;
  /** The merchant named by `Merchant-Id` (routes of scope `merchant`). */
  readonly merchant: MockMerchantRecord | undefined;
}

function checkVersion(config: ApiConfig, req: RawRequest): void {
  const version = req.header(config.versionHeader.toLowerCase());
  if (version === undefined || API_VERSION_RE.test(version)) return;
  throw new MockServiceError(
    400,
    "invalid_api_version",
    `${config.versionHeader} must be a date YYYY-MM-DD, optionally with a suffix such as .preview.`,
    { header: config.versionHeader, value: version },
  );
}

/** The caller named by the request's credentials (401 otherwise). */
export function authenticate(model: MockModel, req: RawRequest): Caller {
  const apiKey = req.header("api-key");
  if (apiKey !== undefined && apiKey !== "") {
    const owner = model.accounts.byApiKey(apiKey);
    if (!owner) throw new MockServiceError(401, "invalid_api_key", "The API key is not valid.");
    return { ...owner, credential: `key:${apiKey}` };
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
  const owner = model.accounts.byApp(appId, clientId);
  if (!owner) throw new MockServiceError(401, "invalid_api_key", "The App-Id / Client-Id pair is not valid.");
  return { ...owner, credential: `app:${appId}` };
}

function rateLimit(model: MockModel, config: ApiConfig, caller: Caller): void {
  const rl = config.rateLimit;
  if (!rl) return;
  const retryAfterSeconds = model.rateWindows.hit(caller.credential, model.now(), rl.limit, rl.windowMs);
  if (retryAfterSeconds === null) return;
  throw new MockServiceError(429, "rate_limited", "Too many requests for this API key; retry later.", {
    retryAfterSeconds,
  });
}

/** The merchant `id` as the caller may see it: 404 when unknown or in the other mode, 403 for another account's. */
export function resolveMerchant(model: MockModel, caller: Caller, id: string): MockMerchantRecord {
  const m = model.merchants.find(id);
  if (!m || (m.accountId === caller.accountId && m.mode !== caller.mode)) {
    throw new MockServiceError(404, "not_found", `No such merchant: ${id}.`, { merchantId: id });
  }
  if (m.accountId !== caller.accountId) {
    throw new MockServiceError(
      403,
      "forbidden",
      "This API key has no permission for that merchant's account.",
    );
  }
  return m;
}

function merchantOf(model: MockModel, req: RawRequest, caller: Caller, rules: ApiRouteRules) {
  if (rules.scope !== "merchant") return undefined;
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
  return resolveMerchant(model, caller, merchantId);
}

/** Where an answer is kept for replays: the scope and the fingerprint of the first request. */
interface ReplaySlot {
  scope: string;
  fingerprint: string;
}

// Records are kept per account + mode + method + path + key. A replay with the same body (and Merchant-Id) returns
// the original status and body with `Idempotent-Replayed: true`; the same key with a different body is answered 422
// `idempotency_key_reused` (Stripe's choice). Only 2xx answers are stored: an error had no effect, so a retry runs
// the operation again.
function replaySlot(
  req: RawRequest,
  caller: Caller,
  body: unknown,
  rules: ApiRouteRules,
): ReplaySlot | undefined {
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
  return {
    scope: `${caller.accountId}|${caller.mode}|${req.method} ${req.url.pathname}|${key}`,
    fingerprint: `${req.header("merchant-id") ?? ""}|${canonicalJson(body)}`,
  };
}

function replay(model: MockModel, slot: ReplaySlot, req: RawRequest): RawResponse | undefined {
  const existing = model.replays.find(slot.scope);
  if (!existing) return undefined;
  if (existing.fingerprint !== slot.fingerprint) {
    throw new MockServiceError(
      422,
      "idempotency_key_reused",
      "This Idempotency-Key was already used with a different request body.",
      { idempotencyKey: req.header("idempotency-key") },
    );
  }
  return {
    status: existing.status,
    headers: { "content-type": "application/json", "idempotent-replayed": "true" },
    body: existing.body,
  };
}

const API_BODY = {
  suffixJson: true,
  typeEvenWhenEmpty: false,
  unsupported: "Request bodies must be JSON (Content-Type: application/json).",
};

/** What the chain needs of a request. */
export interface ChainInput {
  /** The model. */
  model: MockModel;
  /** The API settings. */
  config: ApiConfig;
  /** The request. */
  req: RawRequest;
  /** Where links point. */
  linkBase: string;
  /** Decoded path parameters. */
  params: Record<string, string>;
}

/** Runs the chain, then `handle` with the context it built; a 2xx answer is kept for replays of its key. */
export function runChain(
  input: ChainInput,
  rules: ApiRouteRules,
  handle: (c: ApiContext) => RawResponse,
): RawResponse {
  const { model, config, req } = input;
  checkVersion(config, req);
  const caller = authenticate(model, req);
  rateLimit(model, config, caller);
  const body = readJsonBody(req, API_BODY);
  const merchant = merchantOf(model, req, caller, rules);
  const slot = replaySlot(req, caller, body, rules);
  const replayed = slot && replay(model, slot, req);
  if (replayed) return replayed;
  const res = handle({ ...input, caller, body, merchant });
  if (slot && res.status >= 200 && res.status < 300) {
    model.replays.remember(slot.scope, { fingerprint: slot.fingerprint, status: res.status, body: res.body });
  }
  return res;
}
