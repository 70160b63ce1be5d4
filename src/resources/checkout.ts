/**
 * `client.checkout`: redirect checkout (create, status, polling) and the verification of a buyer's return.
 *
 * @module
 */
import type { APIPromise } from "../core/api-promise.js";
import { checkRequestOptions, type RequestOptions, refuseMisplacedOptions } from "../core/request-options.js";
import { CheckoutReturnError } from "../errors.js";
import { isFinalPaymentStatus } from "../model/payments.js";
import { OPERATIONS } from "../operations.js";
import type { CreateCheckoutInput, CreateCheckoutResponse } from "../schemas/checkout.js";
import type { PaymentStatusResult } from "../schemas/payments.js";
import { assertId } from "../validate/ids.js";
import { describeType, invalidInput, isRecord, nearestName } from "../validate/issues.js";
import { PollingResource, type PollOptions } from "./polling.js";

/** The query of a return URL as frameworks hand it over: a string, `URLSearchParams`, or a parsed object (Express). */
export type ReturnQuery = string | URLSearchParams | Record<string, unknown>;

/** Input of `checkout.verifyReturn`: where the buyer came back to, and the payment stored with the order. */
export interface VerifyReturnParams {
  /** The URL the buyer returned to: absolute, or a path with its query (Express's `req.originalUrl`). Or give `query`. */
  url?: string | URL | undefined;
  /** The return URL's query instead of `url`. */
  query?: ReturnQuery | undefined;
  /** The payment id you stored with the order when you created the checkout. */
  expectedPaymentId: string;
  /**
   * Wait until the payment is final (`true`, or polling options such as `maxWaitMs`) instead of returning the
   * current status.
   */
  wait?: boolean | PollOptions | undefined;
  /** `Merchant-Id` for the status call, instead of the client's default (or give `options.merchantId`). */
  merchantId?: string | undefined;
}

/** What the integrator should do next, from the service's status (never from which URL the buyer landed on). */
export type CheckoutNextStep = "fulfil" | "show_error" | "show_expiry" | "show_cancelled" | "keep_waiting";

/** The verified outcome of a checkout return. */
export interface CheckoutOutcome {
  /** The id of the verified payment (the `expectedPaymentId` you gave). */
  paymentId: string;
  /** The status as the service reports it, server-side. */
  status: PaymentStatusResult;
  /**
   * `fulfil` (succeeded), `show_error` (failed: offer a retry), `show_expiry` (expired: offer a new payment),
   * `show_cancelled`, or `keep_waiting` (not final yet, a status this SDK does not know, or a response that
   * contradicts itself, such as `succeeded` with `isFinal: false`).
   */
  next: CheckoutNextStep;
  /**
   * True only when the service says the payment succeeded and is final (`status === "succeeded"` and
   * `isFinal === true`). The one flag to gate fulfilment on.
   */
  fulfil: boolean;
}

const NEXT_STEP: Record<string, CheckoutNextStep> = {
  succeeded: "fulfil",
  failed: "show_error",
  expired: "show_expiry",
  cancelled: "show_cancelled",
};

/** Redirect-based checkout: the buyer pays on the service's portal and is sent back to your site. */
export class Checkout extends PollingResource {
  /**
   * Creates a checkout payment (`POST /v1/merchant/payment`) and returns `paymentId` and `gatewayUrl`, the portal
   * address to redirect the buyer to. Store `paymentId` with the order. `successUrl` and `errorUrl` must be https
   * (the service would silently disable redirects otherwise); pass `redirects: false` without URLs to choose the
   * portal's generic views. Against a local mock (a loopback `baseUrl`), http return URLs to loopback hosts are
   * accepted too, so a local site can receive the redirect. Always sent with an `Idempotency-Key` (a fresh UUID
   * unless you pass `options.idempotencyKey`), so a retry never creates a second payment.
   */
  create(input: CreateCheckoutInput, options?: RequestOptions): APIPromise<CreateCheckoutResponse> {
    return this.transport.call(OPERATIONS.createCheckout, { input }, options);
  }

  /** The authoritative status (`GET /v1/merchant/payment/{paymentId}/status`). */
  status(paymentId: string, options?: RequestOptions): APIPromise<PaymentStatusResult> {
    return this.transport.call(OPERATIONS.checkoutStatus, { params: { paymentId } }, options);
  }

  /**
   * Verifies the buyer's return to `successUrl`/`errorUrl`. The redirect proves nothing (anyone can type it), so:
   * the `payment_id` it carries must be present once and equal the payment stored with the order, or a
   * {@link CheckoutReturnError} is thrown before anything is trusted; then the status is asked of the service,
   * server-side, and only that decides. Which URL the buyer landed on is ignored. `options` are the request options
   * of the status calls (`timeoutMs` per call, `signal`, `merchantId`, …).
   */
  async verifyReturn(params: VerifyReturnParams, options?: RequestOptions): Promise<CheckoutOutcome> {
    if (!isRecord(params)) throw invalidInput("params", `must be an object, got ${describeType(params)}`);
    if (options !== undefined) checkRequestOptions(options);
    const paymentId = returnedPaymentId(params);
    const pollOptions = params.wait === true ? {} : params.wait || undefined;
    const merchantId = params.merchantId ?? pollOptions?.merchantId ?? options?.merchantId;
    const status = pollOptions
      ? await this.waitForFinal(paymentId, { ...options, ...pollOptions, merchantId })
      : await this.status(paymentId, { ...options, merchantId });
    const final = isFinalPaymentStatus(status);
    const next = final ? (NEXT_STEP[status.status] ?? "keep_waiting") : "keep_waiting";
    return { paymentId, status, next, fulfil: final && status.status === "succeeded" };
  }
}

/** The `payment_id` of a return, checked against the stored one. */
function returnedPaymentId(params: VerifyReturnParams): string {
  checkParamNames(params);
  assertId("expectedPaymentId", params.expectedPaymentId);
  const values = paymentIdValues(params);
  if (values.length === 0) {
    throw new CheckoutReturnError(
      "missing_payment_id",
      "The return URL carries no payment_id: do not fulfil.",
    );
  }
  if (values.length > 1) {
    throw new CheckoutReturnError(
      "duplicated_payment_id",
      "The return URL carries payment_id more than once: do not fulfil.",
    );
  }
  if (values[0] !== params.expectedPaymentId) {
    throw new CheckoutReturnError(
      "payment_id_mismatch",
      "The return URL's payment_id is not this order's: do not fulfil.",
    );
  }
  return params.expectedPaymentId;
}

/** The names {@link VerifyReturnParams} takes. */
const PARAM_NAMES: readonly (keyof VerifyReturnParams)[] = [
  "url",
  "query",
  "expectedPaymentId",
  "wait",
  "merchantId",
];

/**
 * Refuses a name `verifyReturn`'s params do not take, with the same hints as every method: a request option goes in
 * the second argument, a misspelt name gets the nearest one. Silently ignored, `timeoutMs` would not bound the call.
 */
function checkParamNames(params: object): void {
  for (const name of Object.keys(params)) {
    if ((PARAM_NAMES as readonly string[]).includes(name)) continue;
    refuseMisplacedOptions({ [name]: true }, "params", "checkout.verifyReturn(params, options)");
    const nearest = nearestName(name, PARAM_NAMES);
    throw invalidInput(`params.${name}`, `is not a parameter${nearest ? `: did you mean ${nearest}?` : ""}`);
  }
}

function paymentIdValues({ url, query }: VerifyReturnParams): unknown[] {
  if ((url === undefined) === (query === undefined)) {
    throw invalidInput("url", "must be given, or query, but not both");
  }
  if (url !== undefined) return searchParamsOf(url).getAll("payment_id");
  if (typeof query === "string" || query instanceof URLSearchParams) {
    return new URLSearchParams(query).getAll("payment_id");
  }
  if (!isRecord(query)) {
    throw invalidInput("query", `must be a string, URLSearchParams or an object, got ${describeType(query)}`);
  }
  const value = query.payment_id;
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function searchParamsOf(url: string | URL): URLSearchParams {
  if (url instanceof URL) return url.searchParams;
  try {
    // A relative URL (a path with its query, as servers see it) is read against a placeholder origin.
    return new URL(url, "http://return.invalid").searchParams;
  } catch {
    throw invalidInput("url", "is not a URL");
  }
}
