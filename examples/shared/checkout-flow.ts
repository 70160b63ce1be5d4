/**
 * The redirect-checkout flow of the framework examples (Express, Hono, Next.js), free of any framework: each of
 * them only wires these functions to its routes.
 *
 * 1. {@link startCheckout}: `client.checkout.create(…)` for a new order, under an idempotency key tied to the
 *    order; the buyer is then redirected (303) to the returned `gatewayUrl`, the service's checkout portal.
 * 2. {@link handleReturn}: the portal sends the buyer back with `?payment_id=…`. The redirect proves nothing, so
 *    `client.checkout.verifyReturn(…)` checks the `payment_id` against the order's and asks the service for the
 *    status, server-side. Which return URL (success or error) the buyer landed on is ignored: only
 *    `outcome.fulfil` fulfils, and {@link fulfilOnce} makes sure an order ships once.
 *
 * @module
 */
import {
  type CheckoutOutcome,
  CheckoutReturnError,
  type MerchantPaymentsClient,
  money,
  PollTimeoutError,
} from "merchant-payments";

/** An order of the shop. In a real app this is a row in your database. */
export interface Order {
  id: string;
  amount: string;
  currency: string;
  /** The checkout payment created for the order: the only payment a return may fulfil it with. */
  paymentId: string | null;
  status: "awaiting_payment" | "paid" | "payment_failed" | "payment_expired" | "cancelled";
}

/**
 * The orders by id. An in-memory map stands in for your database here: it is per process, so it does not survive
 * a restart and is not shared between serverless instances.
 */
export type OrderStore = Map<string, Order>;

/** The answer when an order request does not hold an amount and a currency ({@link newOrder} returned null). */
export const INVALID_ORDER_INPUT = "amount and currency are required strings";

/**
 * A new order awaiting payment, from a parsed request body (JSON or form fields) holding an `amount` as a decimal
 * string (`"19.99"`) and an ISO 4217 `currency`; null when it does not. Store it once its checkout exists
 * ({@link startCheckout}).
 */
export function newOrder(body: unknown): Order | null {
  const { amount, currency } = (body ?? {}) as { amount?: unknown; currency?: unknown };
  if (typeof amount !== "string" || typeof currency !== "string") return null;
  return { id: `ord_${crypto.randomUUID()}`, amount, currency, paymentId: null, status: "awaiting_payment" };
}

/** Where the portal sends the buyer back; the service appends `payment_id` to both. */
export interface ReturnUrls {
  successUrl: string;
  errorUrl: string;
}

/**
 * Creates the checkout payment of `order` and notes its id on the order. Returns the `gatewayUrl` to redirect the
 * buyer to. Throws `InputValidationError` for an invalid amount or currency (nothing is sent then), and a
 * `MerchantPaymentsError` when the service cannot be reached or refuses.
 */
export async function startCheckout(
  client: MerchantPaymentsClient,
  order: Order,
  urls: ReturnUrls,
): Promise<string> {
  const { paymentId, gatewayUrl } = await client.checkout.create(
    {
      referenceId: order.id,
      amount: money(order.amount, order.currency), // "19.99" USD -> { unit: "iso4217/USD", value: "1999" }, no floats
      successUrl: urls.successUrl,
      errorUrl: urls.errorUrl,
    },
    // A key tied to the order makes the create safe to retry: never two payments for one order.
    { idempotencyKey: `checkout-${order.id}` },
  );
  order.paymentId = paymentId;
  return gatewayUrl;
}

/** What to show the buyer on their return: an HTTP status and a message. */
export interface ReturnPage {
  status: 200 | 202 | 400 | 402 | 404 | 409 | 410;
  message: string;
}

/** Options of {@link handleReturn}. */
export interface ReturnOptions {
  /** How long a return waits for a payment that is still processing before showing "still processing". */
  waitMs?: number;
  /** Called once per order when its payment is verified as succeeded: ship the goods here. */
  onFulfil?: (order: Order) => void | Promise<void>;
}

const STILL_PROCESSING: ReturnPage = {
  status: 202,
  message: "Your payment is still processing. We will e-mail you.",
};

/** What to answer when a return does not fulfil: the page, and the order's new status (null: unchanged). */
const NOT_FULFILLED: Record<
  Exclude<CheckoutOutcome["next"], "fulfil">,
  [ReturnPage, Order["status"] | null]
> = {
  show_error: [{ status: 402, message: "The payment failed. You can try again." }, "payment_failed"],
  show_expiry: [
    { status: 410, message: "The payment expired. Please start a new checkout." },
    "payment_expired",
  ],
  show_cancelled: [{ status: 409, message: "The payment was cancelled." }, "cancelled"],
  keep_waiting: [STILL_PROCESSING, null],
};

/**
 * Handles the buyer's return to `url` (the full return URL, with its `payment_id`) for `order` (undefined: no
 * such order): verifies the payment server-side, updates the order, fulfils it once if paid, and returns the page
 * to show. A missing, repeated or foreign `payment_id` (a tampered or stale link) never fulfils.
 */
export async function handleReturn(
  client: MerchantPaymentsClient,
  order: Order | undefined,
  url: string,
  options: ReturnOptions = {},
): Promise<ReturnPage> {
  if (!order?.paymentId) return { status: 404, message: "Unknown order." };
  try {
    const outcome = await client.checkout.verifyReturn({
      url,
      expectedPaymentId: order.paymentId,
      // The buyer may come back while the transaction is still confirming: wait a little for a final status.
      wait: { timeoutMs: options.waitMs ?? 20_000 },
    });
    if (outcome.fulfil) {
      await fulfilOnce(order, options.onFulfil);
      return { status: 200, message: `Thank you! Order ${order.id} is paid.` };
    }
    // `next` is "fulfil" only together with `fulfil`, unless the service reports succeeded but not final.
    const [page, orderStatus] = NOT_FULFILLED[outcome.next === "fulfil" ? "keep_waiting" : outcome.next];
    if (orderStatus) order.status = orderStatus;
    return page;
  } catch (error) {
    if (error instanceof CheckoutReturnError) {
      return { status: 400, message: "This payment link is not valid for the order." };
    }
    if (error instanceof PollTimeoutError) return STILL_PROCESSING;
    throw error;
  }
}

/** Marks `order` paid and ships it, unless it already is: reloading the return page must not ship twice. */
export async function fulfilOnce(
  order: Order,
  fulfil?: (order: Order) => void | Promise<void>,
): Promise<void> {
  if (order.status === "paid") return;
  order.status = "paid"; // mark first: a second visit of the return URL must not ship twice
  await fulfil?.(order);
}
