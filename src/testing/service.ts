/**
 * The mock service: the control methods (drive payments, move time, inject faults, inspect, reset)
 * over the in-memory model, and the web-standard `fetch`/`handle` answered by the dispatcher
 * (`dispatch.ts`). No msw and no Node imports.
 *
 * @module
 */

import { requestOf } from "../core/wire/request.js";
import { createDispatcher, type Dispatcher } from "./dispatch.js";
import { FaultRegistry, type MockFaultHandle, type MockFaultSpec } from "./faults.js";
import { fromWebRequest, type RawRequest, type RawResponse, toWebResponse } from "./http.js";
import { MockServiceError } from "./model/errors.js";
import { seededRandom } from "./model/random.js";
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
  /**
   * Maximum size of the request log in characters of JSON (oldest dropped first). Default 4 MiB. Only
   * requests that reach a route are logged, each body cut to 4 KiB.
   */
  requestLogMaxBytes?: number;
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
  /** Moves the mock clock forward (expiry, rate-limit windows); at most up to year 9999 (400 beyond). */
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
  /**
   * Back to the seeded state (same keys and ids), no faults, empty log, clock offset 0. Requests still
   * in flight (held by a latency fault) are discarded: their connection is dropped, nothing applied.
   */
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

const clone = <T>(value: T): T => structuredClone(value);

/** The settings the service keeps from its options. */
interface Settings {
  keyPrefix: string;
  controlPrefix: string;
  versionHeader: string;
  defaultVersion: string;
  pollInMs: number;
  rateLimit: { limit: number; windowMs: number } | null;
}

function resolveSettings(options: MockServiceOptions): Settings {
  const keyPrefix = options.keyPrefix ?? "mock";
  if (!/^[A-Za-z0-9]+$/.test(keyPrefix)) throw new TypeError("keyPrefix must be alphanumeric");
  return {
    keyPrefix,
    controlPrefix: (options.controlPrefix ?? DEFAULT_CONTROL_PREFIX).replace(/\/+$/, ""),
    versionHeader: options.versionHeader ?? "Mock-Version",
    defaultVersion: options.defaultVersion ?? MOCK_DEFAULT_VERSION,
    pollInMs: options.pollInMs ?? 1000,
    rateLimit: options.rateLimit
      ? { limit: options.rateLimit.limit, windowMs: options.rateLimit.windowMs ?? 1000 }
      : null,
  };
}

function createModel(options: MockServiceOptions, keyPrefix: string): MockModel {
  return new MockModel(
    {
      keyPrefix,
      paymentTtlMs: options.paymentTtlMs ?? 15 * 60_000,
      allowLoopbackRedirects: options.allowLoopbackRedirects ?? true,
      tokens: options.tokens,
      requestLogLimit: options.requestLogLimit ?? 1000,
      requestLogMaxBytes: options.requestLogMaxBytes ?? 4 * 1024 * 1024,
      now: options.now ?? Date.now,
    },
    options.seed ?? defaultSeed(),
  );
}

/** The service's control methods; every method is an arrow function (bound: destructuring is fine). */
class ControlledService {
  constructor(
    protected readonly model: MockModel,
    protected readonly faults: FaultRegistry,
  ) {}

  private drive = (paymentId: string, fn: (p: MockPaymentRecord) => void): MockPaymentRecord => {
    const p = this.model.getPayment(paymentId);
    fn(p);
    return clone(p);
  };

  completePayment = (id: string, opts?: { optionId?: string }): MockPaymentRecord =>
    this.drive(id, (p) => this.model.transition(p, "succeeded", opts?.optionId));
  failPayment = (id: string): MockPaymentRecord => this.drive(id, (p) => this.model.transition(p, "failed"));
  expirePayment = (id: string): MockPaymentRecord =>
    this.drive(id, (p) => this.model.transition(p, "expired"));
  markProcessing = (id: string): MockPaymentRecord =>
    this.drive(id, (p) => this.model.transition(p, "processing"));
  cancelPayment = (id: string): MockPaymentRecord =>
    this.drive(id, (p) => this.model.transition(p, "cancelled"));
  advanceTime = (ms: number): void => this.model.advanceTime(ms);
  now = (): Date => new Date(this.model.now());

  simulateBuyer = (paymentId: string, opts: SimulateBuyerOptions): string | null => {
    if (opts?.outcome !== "success" && opts?.outcome !== "failure") {
      throw new MockServiceError(400, "invalid_request", 'outcome must be "success" or "failure".', {
        field: "outcome",
      });
    }
    const { model } = this;
    const p = model.getPayment(paymentId);
    if (p.status === "requires_action") {
      if (model.paymentOptions(p).length > 0) {
        model.buildAction(p, opts.optionId, opts.buyerAddress ?? MOCK_BUYER_ADDRESS);
      }
      model.transition(p, "processing");
    }
    model.transition(p, opts.outcome === "success" ? "succeeded" : "failed", opts.optionId);
    if (!p.redirects) return null;
    return withPaymentId(opts.outcome === "success" ? p.redirects.successUrl : p.redirects.errorUrl, p.id);
  };

  paymentOptions = (id: string): MockPaymentOption[] => this.model.paymentOptions(this.model.getPayment(id));
  getPayment = (id: string): MockPaymentRecord => clone(this.model.getPayment(id));
  getMerchant = (id: string): MockMerchantRecord => {
    const m = this.model.merchants.get(id);
    if (!m) throw new MockServiceError(404, "not_found", `No such merchant: ${id}.`);
    return clone(m);
  };
  createAccount = (seed?: MockSeedAccount): MockAccountInfo => clone(this.model.createAccount(seed).account);
  injectFault = (spec: MockFaultSpec): MockFaultHandle => this.faults.add(spec);
  clearFaults = (): void => this.faults.clear();
  clearRequests = (): void => this.model.clearRequests();
  reset = (): void => {
    this.model.reset();
    this.faults.clear();
  };
}

/** The service: control methods, identity, inspection, and the web-standard entry points. */
class MockServiceImpl extends ControlledService implements MockService {
  readonly controlPrefix: string;
  readonly versionHeader: string;

  constructor(
    model: MockModel,
    faults: FaultRegistry,
    settings: Settings,
    private readonly dispatcher: Dispatcher,
  ) {
    super(model, faults);
    this.controlPrefix = settings.controlPrefix;
    this.versionHeader = settings.versionHeader;
  }

  get baseUrl(): string {
    return this.dispatcher.baseUrl;
  }
  get keys(): MockAccountKeys {
    return clone(this.model.defaultAccount.keys);
  }
  get merchantId(): string {
    const id = this.firstMerchant("test");
    if (!id) throw new Error("the default account has no test-mode merchant (seed one)");
    return id;
  }
  get liveMerchantId(): string | null {
    return this.firstMerchant("live");
  }
  get accounts(): MockAccountInfo[] {
    return clone([...this.model.accounts.values()]);
  }
  get requests(): MockRequestLogEntry[] {
    return clone(this.model.requests);
  }
  get merchants(): MockMerchantRecord[] {
    return clone([...this.model.merchants.values()]);
  }
  get payments(): MockPaymentRecord[] {
    for (const p of this.model.payments.values()) this.model.refresh(p);
    return clone([...this.model.payments.values()]);
  }
  get state(): MockStateSnapshot {
    const { accounts, merchants, payments, requests } = this;
    return { now: this.model.now(), accounts, merchants, payments, requests, faults: this.faults.list() };
  }

  fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = requestOf(input, init);
    const response = await this.handle(request);
    if (response.type === "error") {
      throw new TypeError("fetch failed", {
        cause: new Error("connection dropped by the mock (injected fault)"),
      });
    }
    return response;
  };

  handle = async (request: Request): Promise<Response> =>
    toWebResponse(await this.dispatcher.dispatch(await fromWebRequest(request)));

  private firstMerchant(mode: "test" | "live"): string | null {
    const account = this.model.defaultAccount.id;
    for (const m of this.model.merchants.values())
      if (m.accountId === account && m.mode === mode) return m.id;
    return null;
  }
}

/**
 * Creates the mock core. Prefer `createMockService` (in-process: `fetch`, `handle`), the MSW handlers
 * of `merchant-payments/testing/msw`, or `startMockServer` (serves it over `node:http`).
 */
export function createMockServiceCore(options: MockServiceOptions = {}): MockServiceCore {
  const settings = resolveSettings(options);
  const model = createModel(options, settings.keyPrefix);
  const faults = new FaultRegistry(seededRandom(options.randomSeed ?? 1));
  let service: MockService | undefined;
  const dispatcher = createDispatcher({
    model,
    faults,
    settings,
    baseUrl: (options.baseUrl ?? DEFAULT_MOCK_BASE_URL).replace(/\/+$/, ""),
    service: () => service!,
  });
  service = new MockServiceImpl(model, faults, settings, dispatcher);
  return {
    service,
    dispatch: (req) => dispatcher.dispatch(req),
    setBaseUrl: (url) => dispatcher.setBaseUrl(url),
  };
}
