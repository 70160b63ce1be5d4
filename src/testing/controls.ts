/**
 * The mock's control methods over its state: drive payments, move time, inject faults, inspect, reset. Both the
 * `MockService` object and the HTTP control endpoints use these; neither transport is known here.
 *
 * @module
 */

import type { FaultRegistry, MockFaultHandle, MockFaultSpec } from "./faults.js";
import { MockServiceError } from "./store/errors.js";
import { MOCK_BUYER_ADDRESS, type MockPaymentOption } from "./store/options.js";
import type { MockSeedAccount } from "./store/seed.js";
import type { MockModel } from "./store/state.js";
import type {
  MockAccountInfo,
  MockAccountKeys,
  MockMerchantRecord,
  MockPaymentRecord,
  MockRequestLogEntry,
} from "./store/types.js";
import { withPaymentId } from "./store/validation.js";

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

/** What the controls know of the service around them. */
export interface ControlsIdentity {
  /** The current base URL. */
  baseUrl: () => string;
  /** Prefix of the control endpoints. */
  controlPrefix: string;
  /** Name of the version header. */
  versionHeader: string;
}

const clone = <T>(value: T): T => structuredClone(value);

/** The control methods; every method is an arrow function (bound: destructuring is fine). */
export class MockControls {
  /** Prefix of the HTTP control endpoints, e.g. `/__mock`. */
  readonly controlPrefix: string;
  /** Name of the version header, e.g. `Mock-Version`. */
  readonly versionHeader: string;

  /** Creates the controls over a model and its faults. */
  constructor(
    protected readonly model: MockModel,
    protected readonly faults: FaultRegistry,
    private readonly identity: ControlsIdentity,
  ) {
    this.controlPrefix = identity.controlPrefix;
    this.versionHeader = identity.versionHeader;
  }

  private drive = (paymentId: string, fn: (p: MockPaymentRecord) => void): MockPaymentRecord => {
    const p = this.model.payments.get(paymentId);
    fn(p);
    return clone(p);
  };

  completePayment = (id: string, opts?: { optionId?: string }): MockPaymentRecord =>
    this.drive(id, (p) => this.model.payments.transition(p, "succeeded", opts?.optionId));
  failPayment = (id: string): MockPaymentRecord =>
    this.drive(id, (p) => this.model.payments.transition(p, "failed"));
  expirePayment = (id: string): MockPaymentRecord =>
    this.drive(id, (p) => this.model.payments.transition(p, "expired"));
  markProcessing = (id: string): MockPaymentRecord =>
    this.drive(id, (p) => this.model.payments.transition(p, "processing"));
  cancelPayment = (id: string): MockPaymentRecord =>
    this.drive(id, (p) => this.model.payments.transition(p, "cancelled"));
  advanceTime = (ms: number): void => this.model.clock.advance(ms);
  now = (): Date => new Date(this.model.now());

  simulateBuyer = (paymentId: string, opts: SimulateBuyerOptions): string | null => {
    if (opts?.outcome !== "success" && opts?.outcome !== "failure") {
      throw new MockServiceError(400, "invalid_request", 'outcome must be "success" or "failure".', {
        field: "outcome",
      });
    }
    const payments = this.model.payments;
    const p = payments.get(paymentId);
    if (p.status === "requires_action") {
      if (payments.options(p).length > 0)
        payments.action(p, opts.optionId, opts.buyerAddress ?? MOCK_BUYER_ADDRESS);
      payments.transition(p, "processing");
    }
    payments.transition(p, opts.outcome === "success" ? "succeeded" : "failed", opts.optionId);
    if (!p.redirects) return null;
    return withPaymentId(opts.outcome === "success" ? p.redirects.successUrl : p.redirects.errorUrl, p.id);
  };

  paymentOptions = (id: string): MockPaymentOption[] =>
    this.model.payments.options(this.model.payments.get(id));
  getPayment = (id: string): MockPaymentRecord => clone(this.model.payments.get(id));
  getMerchant = (id: string): MockMerchantRecord => {
    const m = this.model.merchants.find(id);
    if (!m) throw new MockServiceError(404, "not_found", `No such merchant: ${id}.`);
    return clone(m);
  };
  createAccount = (seed?: MockSeedAccount): MockAccountInfo => clone(this.model.createAccount(seed).account);
  injectFault = (spec: MockFaultSpec): MockFaultHandle => this.faults.add(spec);
  clearFaults = (): void => this.faults.clear();
  clearRequests = (): void => this.model.requests.clear();
  reset = (): void => {
    this.model.reset();
    this.faults.clear();
  };

  get baseUrl(): string {
    return this.identity.baseUrl();
  }
  get keys(): MockAccountKeys {
    return clone(this.model.accounts.first.keys);
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
    return clone(this.model.accounts.list());
  }
  get requests(): MockRequestLogEntry[] {
    return this.model.requests.list();
  }
  get merchants(): MockMerchantRecord[] {
    return clone(this.model.merchants.list());
  }
  get payments(): MockPaymentRecord[] {
    return clone(this.model.payments.list());
  }
  get state(): MockStateSnapshot {
    const { accounts, merchants, payments, requests } = this;
    return { now: this.model.now(), accounts, merchants, payments, requests, faults: this.faults.list() };
  }

  private firstMerchant(mode: "test" | "live"): string | null {
    return this.model.merchants.of(this.model.accounts.first.id, mode)[0]?.id ?? null;
  }
}
