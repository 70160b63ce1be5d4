/**
 * `client.checkout`: redirect checkout (create, status, polling) and the verification of a buyer's return.
 *
 * @module
 */
import type { APIPromise } from "../core/api-promise.js";
import { checkRequestOptions, type RequestOptions, refuseMisplacedOptions } from "../core/request-options.js";
import { CheckoutReturnError, PollTimeoutError } from "../errors.js";
import { isFinalPaymentStatus, isFulfillable } from "../model/payments.js";
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
   * current status. The wait runs inside your request handler, so it is short unless you say otherwise:
   * 10 seconds when `maxWaitMs` is not given. That one deadline covers the whole wait: every status call, its
   * timeout and its retries end before it. A wait that runs out is not an error: the outcome is `keep_waiting` with
   * the last status seen (none when the service answered nothing usable in time, or asked, with `Retry-After`, for
   * a pause longer than the time left).
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
  /**
   * The status as the service reports it, server-side. `undefined` only after a `wait` in which no status could be
   * read (the service kept failing, did not answer, or rate-limited past the deadline): `next` is then
   * `keep_waiting`.
   */
  status: PaymentStatusResult | undefined;
  /**
   * `fulfil` (succeeded), `show_error` (failed: offer a retry), `show_expiry` (expired: offer a new payment),
   * `show_cancelled`, or `keep_waiting` (not final yet, also when a `wait` ran out; a status this SDK does not know;
   * or a response that contradicts itself, such as `succeeded` with `isFinal: false`).
   */
  next: CheckoutNextStep;
  /**
   * True only when the service says the payment succeeded and is final (`status === "succeeded"` and
   * `isFinal === true`). The one flag to gate fulfilment on.
   */
  fulfil: boolean;
}

/**
 * How long `verifyReturn` waits for a final status when `wait` is `true` or gives no `maxWaitMs`: 10 seconds. The
 * wait holds the buyer's request open, so it is short; a worker (`waitForFinal`) settles what is still pending.
 */
const VERIFY_RETURN_MAX_WAIT_MS = 10_000;

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
    return this.transport.call(OPERATIONS.createCheckout, { body: input }, options);
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
   * of the status calls (`timeoutMs` per call, `signal`, `merchantId`, …). A `wait` that runs out returns
   * `keep_waiting` with the last status seen (or none), within its deadline; it never throws `PollTimeoutError`. Malformed params are an
   * `InputValidationError`.
   */
  async verifyReturn(params: VerifyReturnParams, options?: RequestOptions): Promise<CheckoutOutcome> {
    if (!isRecord(params)) throw invalidInput("params", `must be an object, got ${describeType(params)}`);
    if (options !== undefined) checkRequestOptions(options);
    const paymentId = returnedPaymentId(params);
    const pollOptions = waitOptionsOf(params.wait);
    const merchantId = params.merchantId ?? pollOptions?.merchantId ?? options?.merchantId;
    const status = pollOptions
      ? await statusWithin(this, paymentId, { ...options, ...pollOptions, merchantId })
      : await this.status(paymentId, { ...options, merchantId });
    if (status === undefined) return { paymentId, status, next: "keep_waiting", fulfil: false };
    const final = isFinalPaymentStatus(status);
    const next = final ? (NEXT_STEP[status.status] ?? "keep_waiting") : "keep_waiting";
    return { paymentId, status, next, fulfil: isFulfillable(status) };
  }
}

/** The polling options of `wait` (with the short default deadline), or undefined for a single status call. */
function waitOptionsOf(wait: VerifyReturnParams["wait"]): PollOptions | undefined {
  if (wait === undefined || wait === false) return undefined;
  if (wait === true) return { maxWaitMs: VERIFY_RETURN_MAX_WAIT_MS };
  if (!isRecord(wait)) {
    throw invalidInput("params.wait", `must be a boolean or polling options, got ${describeType(wait)}`);
  }
  return { maxWaitMs: VERIFY_RETURN_MAX_WAIT_MS, ...definedOnly(wait) };
}

/** `options` without its `undefined` entries, so `{ maxWaitMs: undefined }` keeps the default. */
function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * The status once final, or the last one seen when the deadline passes first: a wait that runs out is an answer
 * ("keep waiting"), not an error, and `undefined` when nothing could be read in time. No call is made after the
 * deadline: `watch` fits every call into it. An error that waiting cannot fix (an unknown payment, a bad key) ends
 * the wait and is thrown.
 */
async function statusWithin(
  resource: PollingResource,
  paymentId: string,
  options: PollOptions,
): Promise<PaymentStatusResult | undefined> {
  let last: PaymentStatusResult | undefined;
  try {
    for await (const status of resource.watch(paymentId, options)) last = status;
  } catch (error) {
    if (!(error instanceof PollTimeoutError)) throw error;
  }
  return last;
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
  if (url !== undefined) {
    if (typeof url !== "string" && !(url instanceof URL)) {
      throw invalidInput("url", `must be a string or a URL, got ${describeType(url)}`);
    }
    return searchParamsOf(url).getAll("payment_id");
  }
  if (typeof query === "string" || query instanceof URLSearchParams) {
    return new URLSearchParams(query).getAll("payment_id");
  }
  if (!isRecord(query)) {
    throw invalidInput("query", `must be a string, URLSearchParams or an object, got ${describeType(query)}`);
  }
  const value = Object.hasOwn(query, "payment_id") ? query.payment_id : undefined;
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
