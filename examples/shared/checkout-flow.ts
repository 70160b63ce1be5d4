/**
 * The redirect-checkout flow of the demo shop and the framework examples (Express, Hono, Next.js), free of any
 * framework: each of them only wires these functions to its routes. The orders live in a SQL database
 * (`./orders.ts`).
 *
 * 1. {@link placeOrder}: stores the order with its idempotency key, then {@link startCheckout} creates its checkout
 *    (`client.checkout.create` under that stored key) and stores the `paymentId`; the buyer is then redirected
 *    (303) to the returned `gatewayUrl`, the service's checkout portal. If the answer is lost (a network error),
 *    the order is still there with its key: `startCheckout` again replays the same payment, never a second one.
 * 2. {@link handleReturn}: the portal sends the buyer back with `?payment_id=…`. The redirect proves nothing, so
 *    `client.checkout.verifyReturn(…)` checks the `payment_id` against the order's and asks the service for the
 *    status, server-side. Which return URL (success or error) the buyer landed on is ignored: only
 *    `outcome.fulfil` fulfils, through `orders.fulfil` (a conditional update in a transaction: once).
 * 3. {@link settleOrder}: the polling worker's path for buyers who never come back; it may race the return, and
 *    still the order ships once.
 *
 * @module
 */
import {
  CheckoutReturnError,
  isFinalPaymentStatus,
  isFulfillable,
  type MerchantPaymentsClient,
  money,
  type PaymentStatusResult,
  type PollOptions,
} from "merchant-payments";
import type { FulfilHandler, Order, OrderState, Orders } from "./orders";

export type { FulfilHandler, Order, Orders };

/** The answer when an order request does not hold an amount and a currency ({@link orderInput} returned null). */
export const INVALID_ORDER_INPUT = "amount and currency are required strings";

/** What an order is made of, from a request. */
export interface OrderInput {
  /** A decimal string (`"19.99"`). */
  amount: string;
  /** An ISO 4217 code (`"USD"`). */
  currency: string;
}

/** The `amount` and `currency` of a parsed request body (JSON or form fields); null when either is not a string. */
export function orderInput(body: unknown): OrderInput | null {
  const { amount, currency } = (body ?? {}) as { amount?: unknown; currency?: unknown };
  if (typeof amount !== "string" || typeof currency !== "string") return null;
  return { amount, currency };
}

/** Where the portal sends the buyer back; the service appends `payment_id` to both. */
export interface ReturnUrls {
  successUrl: string;
  errorUrl: string;
}

/**
 * Checks the amount (an `InputValidationError` before anything is stored or sent), stores the order with its
 * idempotency key, then creates its checkout ({@link startCheckout}). `urlsFor` builds the return URLs of the new
 * order. Resolves with the order and the `gatewayUrl` to redirect the buyer to.
 */
export async function placeOrder(
  client: MerchantPaymentsClient,
  orders: Orders,
  input: OrderInput,
  urlsFor: (order: Order) => ReturnUrls,
): Promise<{ order: Order; gatewayUrl: string }> {
  money(input.amount, input.currency); // throws InputValidationError for "1.999" USD, "abc", "usd"…
  const order = await orders.create(input);
  return { order, gatewayUrl: await startCheckout(client, orders, order, urlsFor(order)) };
}

/**
 * Creates the checkout payment of a stored order under the order's stored idempotency key, and stores its
 * `paymentId`. Returns the `gatewayUrl`. Safe to call again after a lost answer: the service replays the first
 * payment. Throws a `MerchantPaymentsError` when the service cannot be reached or refuses (the order stays
 * awaiting payment, with its key, for a later attempt).
 */
export async function startCheckout(
  client: MerchantPaymentsClient,
  orders: Orders,
  order: Order,
  urls: ReturnUrls,
): Promise<string> {
  if (order.paymentId && order.gatewayUrl) return order.gatewayUrl;
  const { paymentId, gatewayUrl } = await client.checkout.create(
    {
      referenceId: order.id,
      amount: money(order.amount, order.currency), // "19.99" USD -> { unit: "iso4217/USD", value: "1999" }, no floats
      successUrl: urls.successUrl,
      errorUrl: urls.errorUrl,
    },
    // Stored with the order before this call: a retry, now or after a crash, can never create a second payment.
    { idempotencyKey: order.idempotencyKey },
  );
  if (!(await orders.recordCheckout(order.id, paymentId, gatewayUrl))) {
    throw new Error(`order ${order.id} already has another payment than ${paymentId}`);
  }
  return gatewayUrl;
}

/** What to show the buyer on their return: an HTTP status and a message. */
export interface ReturnPage {
  status: 200 | 202 | 400 | 402 | 404 | 409 | 410;
  message: string;
}

/** Options of {@link handleReturn}. */
export interface ReturnOptions {
  /**
   * How long a return waits for a payment that is still processing before showing "still processing". Default
   * 10 s (the SDK's own bound for a wait in a request handler); 0 asks for the status once, without waiting.
   */
  waitMs?: number | undefined;
  /** Called once per order, in the fulfilling transaction, when its payment is verified as succeeded. */
  onFulfil?: FulfilHandler | undefined;
}

const STILL_PROCESSING: ReturnPage = {
  status: 202,
  message: "Your payment is still processing. We will e-mail you.",
};

/** Final statuses other than succeeded, and the order state each one leaves. */
const UNPAID: Record<string, Exclude<OrderState, "awaiting_payment" | "fulfilled">> = {
  failed: "payment_failed",
  expired: "payment_expired",
  cancelled: "cancelled",
};

const UNPAID_PAGES: Record<string, ReturnPage> = {
  failed: { status: 402, message: "The payment failed. You can try again." },
  expired: { status: 410, message: "The payment expired. Please start a new checkout." },
  cancelled: { status: 409, message: "The payment was cancelled." },
};

/**
 * Handles the buyer's return to `url` (the full return URL, with its `payment_id`) for the order `orderId`:
 * verifies the payment server-side, fulfils the order once if it is paid, notes a failure, and returns the page
 * to show. A missing, repeated or foreign `payment_id` (a tampered or stale link) never fulfils.
 */
export async function handleReturn(
  client: MerchantPaymentsClient,
  orders: Orders,
  orderId: string | undefined,
  url: string,
  options: ReturnOptions = {},
): Promise<ReturnPage> {
  const order = orderId ? await orders.get(orderId) : undefined;
  if (!order?.paymentId) return { status: 404, message: "Unknown order." };
  const waitMs = options.waitMs ?? 10_000;
  try {
    const outcome = await client.checkout.verifyReturn({
      url,
      expectedPaymentId: order.paymentId,
      // The buyer may come back while the transaction is still confirming: wait a little for a final status.
      // A wait that runs out is an answer (next: "keep_waiting"), not an error.
      wait: waitMs > 0 ? { maxWaitMs: waitMs } : false,
    });
    // outcome.fulfil is the SDK's own rule (isFulfillable): succeeded AND isFinal === true, nothing else.
    if (outcome.fulfil) {
      await orders.fulfil(order.id, outcome.paymentId, options.onFulfil);
      return { status: 200, message: `Thank you! Order ${order.id} is paid.` };
    }
    // No status (the service could not be read within the wait) is "still processing": the worker settles it.
    const unpaid = outcome.status && (await noteUnpaid(orders, order, outcome.status));
    return unpaid ?? STILL_PROCESSING;
  } catch (error) {
    if (error instanceof CheckoutReturnError) {
      return { status: 400, message: "This payment link is not valid for the order." };
    }
    throw error;
  }
}

/** What {@link settleOrder} found: fulfilled now, already done by someone else, not paid, or not final yet. */
export type Settlement = "fulfilled" | "already_fulfilled" | "unpaid" | "waiting";

/** Options of {@link settleOrder}. */
export interface SettleOrderOptions {
  /** Poll until the payment is final (polling options), or ask once (false, the default). */
  wait?: PollOptions | false | undefined;
  /** Called once per order, in the fulfilling transaction, when its payment is seen succeeded. */
  onFulfil?: FulfilHandler | undefined;
}

/**
 * The polling worker's path: asks the service for the status of the order's payment (the source of truth, not
 * the redirect) and fulfils the order once if it succeeded, or notes that it did not.
 */
export async function settleOrder(
  client: MerchantPaymentsClient,
  orders: Orders,
  order: Order,
  options: SettleOrderOptions = {},
): Promise<Settlement> {
  if (!order.paymentId) return "waiting";
  const status = options.wait
    ? await client.checkout.waitForFinal(order.paymentId, options.wait)
    : await client.checkout.status(order.paymentId);
  // The SDK's predicate, never a test of our own: `isFinal: "false"`, `1` or `"no"` in a tolerant reading is not final.
  if (isFulfillable(status)) {
    return (await orders.fulfil(order.id, order.paymentId, options.onFulfil))
      ? "fulfilled"
      : "already_fulfilled";
  }
  return (await noteUnpaid(orders, order, status)) ? "unpaid" : "waiting";
}

/**
 * For a final status other than succeeded, marks the order (if still awaiting payment) and returns its page. Final
 * is the SDK's `isFinalPaymentStatus`: `isFinal === true` and a documented terminal status, so a contradictory
 * answer (`failed` with `isFinal: "false"`) leaves the order awaiting payment.
 */
async function noteUnpaid(
  orders: Orders,
  order: Order,
  status: PaymentStatusResult,
): Promise<ReturnPage | undefined> {
  if (!isFinalPaymentStatus(status) || !Object.hasOwn(UNPAID, status.status)) return undefined;
  const state = UNPAID[status.status];
  if (!state) return undefined;
  await orders.markUnpaid(order.id, state);
  return UNPAID_PAGES[status.status];
}
