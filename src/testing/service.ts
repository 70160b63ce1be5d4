/**
 * The mock service: its options, and the object a test holds: the control methods (`controls.ts`) plus the
 * web-standard `fetch`/`handle` answered by the dispatcher (`dispatch.ts`). No msw and no Node imports.
 *
 * @module
 */

import type { ApiConfig } from "./api/chain.js";
import {
  type ControlsIdentity,
  MockControls,
  type MockStateSnapshot,
  type SimulateBuyerOptions,
} from "./controls.js";
import { createDispatcher, type Dispatcher } from "./dispatch.js";
import { FaultRegistry, type MockFaultHandle, type MockFaultSpec } from "./faults.js";
import { fromWebRequest, toRequest, toWebResponse } from "./http.js";
import type { MockPaymentOption } from "./store/options.js";
import { seededRandom } from "./store/random.js";
import { defaultSeed, type MockSeed, type MockSeedAccount } from "./store/seed.js";
import { MockModel } from "./store/state.js";
import type { MockTokenInfo } from "./store/tokens.js";
import type {
  MockAccountInfo,
  MockAccountKeys,
  MockMerchantRecord,
  MockPaymentRecord,
  MockRequestLogEntry,
} from "./store/types.js";

export type { MockStateSnapshot, SimulateBuyerOptions } from "./controls.js";

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
  /**
   * Test-mode payments also accept plain `http://` redirect URLs to any host (`http://app:3000/done` in Docker
   * Compose): the URLs the SDK sends under its `allowInsecureHttp` with a test key. Live mode never. Default false.
   */
  allowInsecureHttp?: boolean;
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
   * Maximum memory the request log holds, in bytes (oldest dropped first). Default 4 MiB. Only `/v1` requests
   * that reach a route are logged, each body cut to 4 KiB.
   */
  requestLogMaxBytes?: number;
  /** Prefix of the control endpoints. Default `/__mock`. */
  controlPrefix?: string;
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

/** What {@link createMockServiceCore} returns: the service and the dispatcher used by adapters. */
export interface MockServiceCore {
  /** The service. */
  service: MockService;
  /** Answers raw requests (used by the `node:http` and MSW adapters). */
  dispatcher: Dispatcher;
  /** Changes the base URL (used by the server once it knows its port). */
  setBaseUrl(url: string): void;
}

/** The settings the service keeps from its options. */
interface Settings extends ApiConfig {
  controlPrefix: string;
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
      redirects: {
        allowLoopback: options.allowLoopbackRedirects ?? true,
        allowInsecureHttp: options.allowInsecureHttp ?? false,
      },
      tokens: options.tokens,
      requestLogLimit: options.requestLogLimit ?? 1000,
      requestLogMaxBytes: options.requestLogMaxBytes ?? 4 * 1024 * 1024,
      now: options.now ?? Date.now,
    },
    options.seed ?? defaultSeed(),
  );
}

/** The service: the control methods, and the web-standard entry points. */
class MockServiceImpl extends MockControls implements MockService {
  constructor(
    model: MockModel,
    faults: FaultRegistry,
    identity: ControlsIdentity,
    private readonly dispatcher: Dispatcher,
  ) {
    super(model, faults, identity);
  }

  fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const response = await this.handle(toRequest(input, init));
    if (response.type === "error") {
      throw new TypeError("fetch failed", {
        cause: new Error("connection dropped by the mock (injected fault)"),
      });
    }
    return response;
  };

  handle = async (request: Request): Promise<Response> =>
    toWebResponse(await this.dispatcher.dispatch(await fromWebRequest(request)));
}

const DISPATCHERS = new WeakMap<MockService, Dispatcher>();

/** The dispatcher behind a service made by {@link createMockServiceCore}. */
export function dispatcherOf(service: MockService): Dispatcher {
  const dispatcher = DISPATCHERS.get(service);
  if (!dispatcher) throw new TypeError("not a mock service made by createMockService");
  return dispatcher;
}

/**
 * Creates the mock core. Prefer `createMockService` (in-process: `fetch`, `handle`), the MSW handlers
 * of `merchant-payments/testing/msw`, or `startMockServer` (serves it over `node:http`).
 */
export function createMockServiceCore(options: MockServiceOptions = {}): MockServiceCore {
  const settings = resolveSettings(options);
  const model = createModel(options, settings.keyPrefix);
  const faults = new FaultRegistry(seededRandom(options.randomSeed ?? 1));
  let baseUrl = (options.baseUrl ?? DEFAULT_MOCK_BASE_URL).replace(/\/+$/, "");
  const identity = {
    baseUrl: () => baseUrl,
    controlPrefix: settings.controlPrefix,
    versionHeader: settings.versionHeader,
  };
  const dispatcher = createDispatcher({
    model,
    faults,
    controls: new MockControls(model, faults, identity),
    settings,
    baseUrl: identity.baseUrl,
  });
  const service = new MockServiceImpl(model, faults, identity, dispatcher);
  DISPATCHERS.set(service, dispatcher);
  return {
    service,
    dispatcher,
    setBaseUrl: (url) => {
      baseUrl = url.replace(/\/+$/, "");
    },
  };
}
