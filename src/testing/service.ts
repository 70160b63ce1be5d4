/**
 * The core of the mock: a web-standard fetch handler over the in-memory model, plus the control
 * methods (drive payments, move time, inject faults, inspect, reset). No msw and no Node imports.
 *
 * @module
 */

import { handleApi, redactKey } from "./api.js";
import { controlRoute } from "./control.js";
import { FaultRegistry, type MockFaultHandle, type MockFaultSpec } from "./faults.js";
import { fromWebRequest, html, json, type RawRequest, type RawResponse, toWebResponse } from "./http.js";
import { MockServiceError } from "./model/errors.js";
import { randomId, seededRandom } from "./model/random.js";
import { defaultSeed, type MockSeed, type MockSeedAccount } from "./model/seed.js";
import { MOCK_BUYER_ADDRESS, MockModel, type MockPaymentOption } from "./model/store.js";
import type { MockTokenInfo } from "./model/tokens.js";
import type {
  MockAccountInfo,
  MockAccountKeys,
  MockMerchantRecord,
  MockPaymentRecord,
  MockRequestLogEntry,
} from "./model/types.js";
import { withPaymentId } from "./model/validation.js";
import { renderPortal, renderPortalNotFound } from "./portal.js";

/** Default base URL of the mock when used through MSW (a reserved `.test` domain: never resolves). */
export const DEFAULT_MOCK_BASE_URL = "https://mock.merchant-payments.test";
/** Default prefix of the control endpoints. */
export const DEFAULT_CONTROL_PREFIX = "/__mock";
/** The version label of the interface the mock implements (sent back when no version header is given). */
export const MOCK_DEFAULT_VERSION = "2026-02-19.preview";

/** Options of {@link createMockService}; {@link startMockServer} takes them too, but for `baseUrl`. */
export interface MockServiceOptions {
  /** Where the mock answers (MSW matches this origin). Default {@link DEFAULT_MOCK_BASE_URL}. No trailing slash. */
  baseUrl?: string;
  /** The service key prefix: test keys `<prefix>_test_…`, live keys `<prefix>_…`. Default `mock`. */
  keyPrefix?: string;
  /** Name of the optional version header. Default `Mock-Version`. */
  versionHeader?: string;
  /** Version answered when the request pins none. Default {@link MOCK_DEFAULT_VERSION}. */
  defaultVersion?: string;
  /** Accounts, keys, merchants and settlements to start with. Default: one account with a test and a live merchant. */
  seed?: MockSeed;
  /** `pollInMs` hint of non-final status results. Default 1000. */
  pollInMs?: number;
  /** Lifetime of a `requires_action` payment before it expires. Default 15 minutes. */
  paymentTtlMs?: number;
  /** Clock (epoch ms). Default `Date.now`. `advanceTime()` adds an offset on top. */
  now?: () => number;
  /**
   * Mock-only convenience: also accept `http://127.0.0.1`, `http://localhost` and `http://[::1]`
   * redirect URLs (the spec requires HTTPS; other URLs disable redirects). Default true.
   */
  allowLoopbackRedirects?: boolean;
  /** Per-credential request budget; off by default. Excess requests get 429 `rate_limited` + `Retry-After`. */
  rateLimit?: {
    /** Requests allowed per credential in one window. */
    limit: number;
    /** Length of the window in milliseconds (mock clock). Default 1000. */
    windowMs?: number;
  };
  /** Seed of the RNG used by faults with a `rate`. Default 1. */
  randomSeed?: number;
  /** Extra tokens (decimals / EIP-712 domain), keyed by CAIP-19 asset id. */
  tokens?: Record<string, MockTokenInfo>;
  /** Maximum number of logged requests kept (oldest dropped first). Default 1000. */
  requestLogLimit?: number;
  /** Prefix of the control endpoints. Default `/__mock`. */
  controlPrefix?: string;
}

/** Options of {@link MockService.simulateBuyer}. */
export interface SimulateBuyerOptions {
  /** The buyer pays (`success`) or the payment fails (`failure`). */
  outcome: "success" | "failure";
  /** The payment option (crypto settlement id); default the first. */
  optionId?: string;
  /** Buyer address; default the mock's test address. */
  buyerAddress?: string;
}

/** A snapshot of the state for inspection. */
export interface MockStateSnapshot {
  /** Current mock time (epoch ms). */
  now: number;
  /** Every account. */
  accounts: MockAccountInfo[];
  /** Every merchant (both modes, all accounts). */
  merchants: MockMerchantRecord[];
  /** Every payment. */
  payments: MockPaymentRecord[];
  /** The request log (redacted). */
  requests: MockRequestLogEntry[];
  /** Active faults. */
  faults: {
    /** Identifier, as in {@link MockFaultHandle.id}. */
    id: string;
    /** What the fault injects. */
    spec: MockFaultSpec;
    /** Requests it may still affect (`Infinity` for a `rate` fault without `times`). */
    remaining: number;
    /** How many requests it affected so far. */
    hits: number;
  }[];
}

/** The mock service (core, without MSW handlers). Every method is bound: destructuring is fine. */
export interface MockService {
  /** Base URL the mock answers on (the server URL when served by `startMockServer`). */
  readonly baseUrl: string;
  /** Keys of the default (first) account. */
  readonly keys: MockAccountKeys;
  /** Id of the default account's first test-mode merchant. */
  readonly merchantId: string;
  /** Id of the default account's first live-mode merchant, or null. */
  readonly liveMerchantId: string | null;
  /** Every account (the first is the default one). */
  readonly accounts: MockAccountInfo[];
  /** Prefix of the HTTP control endpoints, e.g. `/__mock`. */
  readonly controlPrefix: string;
  /** Name of the version header, e.g. `Mock-Version`. */
  readonly versionHeader: string;
  /** A `fetch`-compatible function answered by the mock (a dropped connection rejects with a TypeError). */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Web-standard handler: a dropped connection yields `Response.error()`. */
  handle(request: Request): Promise<Response>;
  /** Succeeds a payment (`requires_action`/`processing` → `succeeded`); throws {@link MockServiceError} otherwise. */
  completePayment(paymentId: string, options?: { optionId?: string }): MockPaymentRecord;
  /** Fails a payment (non-final → `failed`). */
  failPayment(paymentId: string): MockPaymentRecord;
  /** Expires a payment (non-final → `expired`). */
  expirePayment(paymentId: string): MockPaymentRecord;
  /** `requires_action` → `processing`. */
  markProcessing(paymentId: string): MockPaymentRecord;
  /** Cancels a payment as the merchant would (non-final → `cancelled`). */
  cancelPayment(paymentId: string): MockPaymentRecord;
  /** Moves the mock clock forward (expiry, rate-limit windows). */
  advanceTime(ms: number): void;
  /** Current mock time. */
  now(): Date;
  /**
   * Walks the portal flow: builds the wallet action, "signs", `processing`, then `succeeded` or
   * `failed`. Returns `<successUrl|errorUrl>?payment_id=<id>`, or null when redirects are disabled.
   */
  simulateBuyer(paymentId: string, options: SimulateBuyerOptions): string | null;
  /** The payment options of a payment (one per crypto settlement; `optionId` = settlement id). */
  paymentOptions(paymentId: string): MockPaymentOption[];
  /** A payment (copy); expiry applied. Throws when unknown. */
  getPayment(paymentId: string): MockPaymentRecord;
  /** A merchant (copy). Throws when unknown. */
  getMerchant(merchantId: string): MockMerchantRecord;
  /** Adds an account (keys generated unless given) and returns it. Not kept across `reset()`. */
  createAccount(seed?: MockSeedAccount): MockAccountInfo;
  /** Injects a fault. */
  injectFault(spec: MockFaultSpec): MockFaultHandle;
  /** Removes every fault. */
  clearFaults(): void;
  /** Empties the request log. */
  clearRequests(): void;
  /** Back to the seeded state (same keys and ids), no faults, empty log, clock offset 0. */
  reset(): void;
  /** Logged requests (copies; `Api-Key` redacted). */
  readonly requests: MockRequestLogEntry[];
  /** All merchants (copies). */
  readonly merchants: MockMerchantRecord[];
  /** All payments (copies, expiry applied). */
  readonly payments: MockPaymentRecord[];
  /** Everything at once (copies). */
  readonly state: MockStateSnapshot;
}

/** What {@link createMockServiceCore} returns: the service and the raw dispatcher used by adapters. */
export interface MockServiceCore {
  /** The service. */
  service: MockService;
  /** Answers a raw request (used by `node:http` and MSW adapters). */
  dispatch(req: RawRequest): Promise<RawResponse>;
  /** Changes the base URL (used by the server once it knows its port). */
  setBaseUrl(url: string): void;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function serverErrorCode(status: number): string {
  switch (status) {
    case 500:
      return "internal_error";
    case 502:
      return "bad_gateway";
    case 503:
      return "service_unavailable";
    case 504:
      return "gateway_timeout";
    default:
      return "server_error";
  }
}

function faultResponse(spec: MockFaultSpec, real: RawResponse | null): RawResponse {
  switch (spec.type) {
    case "rateLimit": {
      const retry = spec.retryAfterSeconds ?? 1;
      return json(
        429,
        {
          message: "Rate limit exceeded (injected fault).",
          code: "rate_limited",
          details: { retryAfterSeconds: retry },
        },
        { "retry-after": String(retry) },
      );
    }
    case "serverError": {
      const status = spec.status ?? 500;
      return json(status, { message: `Injected server error ${status}.`, code: serverErrorCode(status) });
    }
    case "drop":
      return { status: 0, headers: {}, body: "", drop: true };
    case "malformedJson": {
      const full = real?.body ?? '{"message":"Partial response","code":"partial"}';
      const cut = Math.max(1, Math.floor(full.length / 2));
      return {
        status: spec.status ?? real?.status ?? 200,
        headers: { ...(real?.headers ?? {}), "content-type": "application/json" },
        body: full.slice(0, Math.min(cut, full.length - 1)),
      };
    }
    case "html": {
      const status = spec.status ?? 502;
      return html(
        status,
        `<html><head><title>${status}</title></head><body><h1>${status} Bad Gateway</h1></body></html>`,
      );
    }
    case "latency":
      return real ?? json(500, { message: "latency fault without answer", code: "internal_error" });
  }
}

/**
 * Creates the mock core. Prefer `createMockService` (adds MSW handlers) or `startMockServer`
 * (serves it over `node:http`).
 */
export function createMockServiceCore(options: MockServiceOptions = {}): MockServiceCore {
  let baseUrl = (options.baseUrl ?? DEFAULT_MOCK_BASE_URL).replace(/\/+$/, "");
  const keyPrefix = options.keyPrefix ?? "mock";
  if (!/^[A-Za-z0-9]+$/.test(keyPrefix)) throw new TypeError("keyPrefix must be alphanumeric");
  const controlPrefix = (options.controlPrefix ?? DEFAULT_CONTROL_PREFIX).replace(/\/+$/, "");
  const versionHeader = options.versionHeader ?? "Mock-Version";
  const pollInMs = options.pollInMs ?? 1000;
  const model = new MockModel(
    {
      keyPrefix,
      paymentTtlMs: options.paymentTtlMs ?? 15 * 60_000,
      allowLoopbackRedirects: options.allowLoopbackRedirects ?? true,
      tokens: options.tokens,
      requestLogLimit: options.requestLogLimit ?? 1000,
      now: options.now ?? Date.now,
    },
    options.seed ?? defaultSeed(),
  );
  const faults = new FaultRegistry(seededRandom(options.randomSeed ?? 1));
  const apiConfig = {
    baseUrl: () => baseUrl,
    keyPrefix,
    versionHeader,
    defaultVersion: options.defaultVersion ?? MOCK_DEFAULT_VERSION,
    pollInMs,
    rateLimit: options.rateLimit
      ? { limit: options.rateLimit.limit, windowMs: options.rateLimit.windowMs ?? 1000 }
      : null,
  };
  const versionName = versionHeader.toLowerCase();

  const clone = <T>(value: T): T => structuredClone(value);
  const firstMerchant = (mode: "test" | "live"): string | null => {
    const account = model.defaultAccount.id;
    for (const m of model.merchants.values()) if (m.accountId === account && m.mode === mode) return m.id;
    return null;
  };

  const drive = (paymentId: string, fn: (p: MockPaymentRecord) => void): MockPaymentRecord => {
    const p = model.getPayment(paymentId);
    fn(p);
    return clone(p);
  };

  const simulateBuyer = (paymentId: string, opts: SimulateBuyerOptions): string | null => {
    if (opts?.outcome !== "success" && opts?.outcome !== "failure") {
      throw new MockServiceError(400, "invalid_request", 'outcome must be "success" or "failure".', {
        field: "outcome",
      });
    }
    const p = model.getPayment(paymentId);
    if (p.status === "requires_action") {
      const hasOptions = model.paymentOptions(p).length > 0;
      if (hasOptions) model.buildAction(p, opts.optionId, opts.buyerAddress ?? MOCK_BUYER_ADDRESS);
      model.transition(p, "processing");
    }
    model.transition(p, opts.outcome === "success" ? "succeeded" : "failed", opts.optionId);
    if (!p.redirects) return null;
    return withPaymentId(opts.outcome === "success" ? p.redirects.successUrl : p.redirects.errorUrl, p.id);
  };

  const service: MockService = {
    get baseUrl() {
      return baseUrl;
    },
    get keys() {
      return clone(model.defaultAccount.keys);
    },
    get merchantId() {
      const id = firstMerchant("test");
      if (!id) throw new Error("the default account has no test-mode merchant (seed one)");
      return id;
    },
    get liveMerchantId() {
      return firstMerchant("live");
    },
    get accounts() {
      return clone([...model.accounts.values()]);
    },
    controlPrefix,
    versionHeader,
    async fetch(input, init) {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      const response = await service.handle(request);
      if (response.type === "error") {
        throw new TypeError("fetch failed", {
          cause: new Error("connection dropped by the mock (injected fault)"),
        });
      }
      return response;
    },
    async handle(request) {
      return toWebResponse(await dispatch(await fromWebRequest(request)));
    },
    completePayment: (id, opts) => drive(id, (p) => model.transition(p, "succeeded", opts?.optionId)),
    failPayment: (id) => drive(id, (p) => model.transition(p, "failed")),
    expirePayment: (id) => drive(id, (p) => model.transition(p, "expired")),
    markProcessing: (id) => drive(id, (p) => model.transition(p, "processing")),
    cancelPayment: (id) => drive(id, (p) => model.transition(p, "cancelled")),
    advanceTime: (ms) => model.advanceTime(ms),
    now: () => new Date(model.now()),
    simulateBuyer,
    paymentOptions: (id) => model.paymentOptions(model.getPayment(id)),
    getPayment: (id) => clone(model.getPayment(id)),
    getMerchant: (id) => {
      const m = model.merchants.get(id);
      if (!m) throw new MockServiceError(404, "not_found", `No such merchant: ${id}.`);
      return clone(m);
    },
    createAccount: (seed) => clone(model.createAccount(seed).account),
    injectFault: (spec) => faults.add(spec),
    clearFaults: () => faults.clear(),
    clearRequests: () => {
      model.requests = [];
    },
    reset: () => {
      model.reset();
      faults.clear();
    },
    get requests() {
      return clone(model.requests);
    },
    get merchants() {
      return clone([...model.merchants.values()]);
    },
    get payments() {
      for (const p of model.payments.values()) model.refresh(p);
      return clone([...model.payments.values()]);
    },
    get state() {
      return {
        now: model.now(),
        accounts: service.accounts,
        merchants: service.merchants,
        payments: service.payments,
        requests: service.requests,
        faults: faults.list(),
      };
    },
  };

  function logEntry(req: RawRequest, requestId: string): MockRequestLogEntry {
    const headers: Record<string, string> = {};
    for (const [name, value] of req.headerEntries()) {
      const n = name.toLowerCase();
      headers[n] = n === "api-key" ? redactKey(value, keyPrefix) : n === "authorization" ? "***" : value;
    }
    let body: unknown = null;
    if (req.body !== "") {
      try {
        body = JSON.parse(req.body);
      } catch {
        body = req.body;
      }
    }
    const query: Record<string, string> = {};
    for (const [k, v] of req.url.searchParams) query[k] = v;
    return {
      requestId,
      time: model.now(),
      method: req.method,
      path: req.url.pathname,
      query,
      headers,
      body,
      version: req.header(versionName) ?? null,
      status: null,
    };
  }

  async function dispatch(req: RawRequest): Promise<RawResponse> {
    const path = req.url.pathname;
    if (path === controlPrefix || path.startsWith(`${controlPrefix}/`)) {
      return controlRoute({ service, faults, req, path: path.slice(controlPrefix.length) || "/" });
    }
    if (req.method === "GET" && path.startsWith("/portal/")) {
      let id = path.slice("/portal/".length);
      try {
        id = decodeURIComponent(id);
      } catch {
        // keep raw
      }
      const p = model.payments.get(id);
      if (!p) return html(404, renderPortalNotFound(id));
      model.refresh(p);
      return html(
        200,
        renderPortal({
          payment: p,
          merchant: model.merchants.get(p.merchantId),
          options: model.paymentOptions(p),
          controlPrefix,
        }),
      );
    }
    const requestId = randomId("req_", 20);
    const entry = logEntry(req, requestId);
    model.log(entry);
    const fault = faults.take(req.method, path);
    let res: RawResponse;
    if (fault && !fault.after) {
      if (fault.type === "latency") {
        await sleep(fault.latencyMs ?? 1000);
        res = handleApi(model, apiConfig, req);
      } else {
        res = faultResponse(fault, null);
      }
    } else {
      res = handleApi(model, apiConfig, req);
      if (fault) {
        if (fault.type === "latency") await sleep(fault.latencyMs ?? 1000);
        else res = faultResponse(fault, res);
      }
    }
    res.headers["request-id"] = requestId;
    entry.status = res.drop ? null : res.status;
    return res;
  }

  return {
    service,
    dispatch,
    setBaseUrl(url: string) {
      baseUrl = url.replace(/\/+$/, "");
    },
  };
}
