/**
 * The payments of the mock and their state machine:
 * `requires_action → processing → succeeded | failed`; `requires_action | processing → expired | cancelled |
 * succeeded | failed`. A final payment never changes.
 *
 * @module
 */

import { isTerminalPaymentStatus } from "../../model/payments.js";
import { MockServiceError } from "./errors.js";
import type { MerchantStore } from "./merchants.js";
import { MOCK_BUYER_ADDRESS, type MockPaymentOption, PaymentOptions } from "./options.js";
import { randomHex, randomId } from "./random.js";
import type { MockTokenInfo } from "./tokens.js";
import type { MockWalletRpcAction } from "./typed-data.js";
import type { MockAmount, MockMerchantRecord, MockPaymentRecord, MockPaymentStatus } from "./types.js";
import { isEvmAddress, isRedirectUrl, type RedirectRule } from "./validation.js";

/** What a new payment is made of. */
export interface NewPayment {
  /** The merchant it is for. */
  merchant: MockMerchantRecord;
  /** The merchant's order id. */
  referenceId: string;
  /** Requested amount (`iso4217/…`). */
  amount: MockAmount;
  /** Which operation created it. */
  flow: "direct" | "checkout";
  /** The checkout's redirect URLs, as sent. */
  checkout: { successUrl?: unknown; errorUrl?: unknown } | null;
}

/** What the payment store needs to know. */
export interface PaymentRules {
  /** Lifetime of a `requires_action` payment. */
  paymentTtlMs: number;
  /** Which plain-http redirect URLs are accepted. */
  redirects: RedirectRule;
  /** Extra token table. */
  tokens: Readonly<Record<string, MockTokenInfo>> | undefined;
  /** Mock clock. */
  now: () => number;
}

/** Payments by id, expiry applied on every read. */
export class PaymentStore {
  readonly #payments = new Map<string, MockPaymentRecord>();
  readonly #options: PaymentOptions;

  /** Creates the store. */
  constructor(
    private readonly rules: PaymentRules,
    private readonly merchants: MerchantStore,
  ) {
    this.#options = new PaymentOptions(rules.tokens);
  }

  /** Creates a payment in `requires_action`. */
  create(input: NewPayment): MockPaymentRecord {
    const now = this.rules.now();
    const { successUrl, errorUrl } = input.checkout ?? {};
    const rule = { ...this.rules.redirects, mode: input.merchant.mode };
    const redirects =
      isRedirectUrl(successUrl, rule) && isRedirectUrl(errorUrl, rule) ? { successUrl, errorUrl } : null;
    const payment: MockPaymentRecord = {
      id: randomId("pay_"),
      accountId: input.merchant.accountId,
      mode: input.merchant.mode,
      merchantId: input.merchant.id,
      referenceId: input.referenceId,
      amount: { ...input.amount },
      flow: input.flow,
      redirects,
      status: "requires_action",
      createdAt: now,
      expiresAt: now + this.rules.paymentTtlMs,
      selectedOptionId: null,
      buyerAddress: null,
      info: null,
      cancelledAt: null,
      history: [{ status: "requires_action", at: now }],
    };
    this.#payments.set(payment.id, payment);
    return payment;
  }

  /** A payment with expiry applied, or undefined. */
  find(id: string): MockPaymentRecord | undefined {
    const payment = this.#payments.get(id);
    if (payment) this.refresh(payment);
    return payment;
  }

  /** A payment with expiry applied; 404 when unknown. */
  get(id: string): MockPaymentRecord {
    const payment = this.find(id);
    if (!payment) throw new MockServiceError(404, "not_found", `No such payment: ${id}.`);
    return payment;
  }

  /** Every payment, expiry applied. */
  list(): MockPaymentRecord[] {
    const all = [...this.#payments.values()];
    for (const p of all) this.refresh(p);
    return all;
  }

  private refresh(payment: MockPaymentRecord): void {
    if (payment.status === "requires_action" && this.rules.now() >= payment.expiresAt) {
      this.setStatus(payment, "expired", payment.expiresAt);
    }
  }

  private setStatus(payment: MockPaymentRecord, status: MockPaymentStatus, at = this.rules.now()): void {
    payment.status = status;
    payment.history.push({ status, at });
  }

  /** Moves a payment along the state machine (409 `invalid_transition` / `payment_not_cancellable`). */
  transition(payment: MockPaymentRecord, to: MockPaymentStatus, optionId?: string): MockPaymentRecord {
    this.refresh(payment);
    const from = payment.status;
    const allowed =
      !isTerminalPaymentStatus(from) &&
      (to !== "processing" || from === "requires_action") &&
      to !== "requires_action";
    if (!allowed) {
      throw new MockServiceError(
        409,
        to === "cancelled" ? "payment_not_cancellable" : "invalid_transition",
        `Payment ${payment.id} is ${from} and cannot become ${to}.`,
        { status: from },
      );
    }
    if (optionId !== undefined) {
      this.#options.find(this.options(payment), optionId);
      payment.selectedOptionId = optionId;
    }
    if (to === "succeeded") {
      const option = this.#options.selected(payment, this.options(payment));
      payment.info = {
        txId: payment.mode === "test" ? `test:${payment.id}` : randomHex(32),
        optionAmount: { ...option.amount },
      };
      payment.selectedOptionId = option.optionId;
    }
    if (to === "cancelled") payment.cancelledAt = this.rules.now();
    this.setStatus(payment, to);
    return payment;
  }

  /** The options of a payment: one per crypto settlement of its merchant. */
  options(payment: MockPaymentRecord): MockPaymentOption[] {
    return this.#options.of(payment, this.merchants.find(payment.merchantId));
  }

  /** Builds the wallet action for a payment (status stays `requires_action`). */
  action(payment: MockPaymentRecord, optionId: string | undefined, buyer: string): MockWalletRpcAction {
    this.refresh(payment);
    if (payment.status !== "requires_action") {
      throw new MockServiceError(
        409,
        "payment_not_actionable",
        `Payment ${payment.id} is ${payment.status}.`,
        {
          status: payment.status,
        },
      );
    }
    const options = this.options(payment);
    if (options.length === 0) {
      throw new MockServiceError(
        409,
        "no_payment_options",
        "The merchant has no crypto settlement to pay to.",
      );
    }
    const option = optionId === undefined ? options[0]! : this.#options.find(options, optionId);
    const action = this.#options.action(payment, option, buyer);
    payment.selectedOptionId = option.optionId;
    payment.buyerAddress = buyer;
    return action;
  }

  /** Forgets everything. */
  clear(): void {
    this.#payments.clear();
  }
}

/** Parses the `data` of a gateway fetch into a buyer address (an address, or JSON with `from`/`address`). */
export function buyerFromData(data: unknown): string {
  if (data === undefined || data === null || data === "") return MOCK_BUYER_ADDRESS;
  if (typeof data !== "string") {
    throw new MockServiceError(400, "invalid_request", "data must be a string.", { field: "data" });
  }
  if (isEvmAddress(data)) return data;
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed === "object" && parsed !== null) {
      const rec = parsed as Record<string, unknown>;
      const addr = rec.from ?? rec.address;
      if (typeof addr === "string" && isEvmAddress(addr)) return addr;
    }
  } catch {
    // not JSON: the message below says what is accepted
  }
  throw new MockServiceError(
    400,
    "invalid_request",
    "data must be the buyer's 0x address, or a JSON string with a `from` (or `address`) 0x address.",
    { field: "data" },
  );
}
