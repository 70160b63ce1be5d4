/**
 * Redirect checkout with Hono: the same flow as the Express example, on web-standard `Request`/`Response`, so it
 * runs on Node (`@hono/node-server`), Bun, Deno or a serverless runtime alike. Keep the API key on the server
 * side: never in a browser bundle.
 *
 * - `POST /orders` (`{ amount, currency }`): creates the order and its checkout, 303 to `gatewayUrl`.
 * - `GET /checkout/success` and `GET /checkout/error`: verify the return server-side; fulfil only on `outcome.fulfil`.
 * - `GET /orders/:id`: the order as JSON.
 *
 * The test (`test/examples/hono.test.ts`) drives it with `app.request(…)`, no port needed.
 *
 * @module
 */
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  type CheckoutOutcome,
  CheckoutReturnError,
  InputValidationError,
  type MerchantPaymentsClient,
  MerchantPaymentsError,
  money,
  PollTimeoutError,
} from "merchant-payments";

/** An order of the shop (a database row in a real app). */
export interface Order {
  id: string;
  amount: string;
  currency: string;
  /** The checkout payment created for the order. */
  paymentId: string | null;
  status: "awaiting_payment" | "paid" | "payment_failed" | "payment_expired" | "cancelled";
}

/** Options of {@link createApp}. */
export interface AppOptions {
  /** Public origin of the shop, used for the return URLs. Must be https against the real service. */
  publicUrl: string;
  /** How long a return waits for a payment still processing. Default 20 s. */
  returnWaitMs?: number;
  /** Called once per order when its payment is verified as succeeded. */
  onFulfil?: (order: Order) => void | Promise<void>;
}

/** What to answer when a return does not fulfil: HTTP status, new order status, message. */
const NOT_FULFILLED: Record<
  Exclude<CheckoutOutcome["next"], "fulfil">,
  [ContentfulStatusCode, Order["status"] | null, string]
> = {
  show_error: [402, "payment_failed", "The payment failed. You can try again."],
  show_expiry: [410, "payment_expired", "The payment expired. Please start a new checkout."],
  show_cancelled: [409, "cancelled", "The payment was cancelled."],
  keep_waiting: [202, null, "Your payment is still processing. We will e-mail you."],
};

/** The Hono app of the shop. */
export function createApp(client: MerchantPaymentsClient, options: AppOptions): Hono {
  const orders = new Map<string, Order>();
  const app = new Hono();

  app.post("/orders", async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { amount?: unknown; currency?: unknown };
    if (typeof body.amount !== "string" || typeof body.currency !== "string") {
      return c.json({ error: "amount and currency are required strings" }, 400);
    }
    const order: Order = {
      id: `ord_${crypto.randomUUID()}`,
      amount: body.amount,
      currency: body.currency,
      paymentId: null,
      status: "awaiting_payment",
    };
    const back = (path: string) => `${options.publicUrl}${path}?order=${encodeURIComponent(order.id)}`;
    const { paymentId, gatewayUrl } = await client.checkout.create(
      {
        referenceId: order.id,
        amount: money(body.amount, body.currency),
        successUrl: back("/checkout/success"),
        errorUrl: back("/checkout/error"),
      },
      { idempotencyKey: `checkout-${order.id}` },
    );
    order.paymentId = paymentId;
    orders.set(order.id, order);
    return c.redirect(gatewayUrl, 303);
  });

  app.get("/orders/:id", (c) => {
    const order = orders.get(c.req.param("id"));
    return order ? c.json(order) : c.json({ error: "no such order" }, 404);
  });

  const handleReturn = async (c: Context) => {
    const order = orders.get(c.req.query("order") ?? "");
    if (!order?.paymentId) return c.text("Unknown order.", 404);
    try {
      const outcome = await client.checkout.verifyReturn({
        url: c.req.url, // the full return URL; only its payment_id matters
        expectedPaymentId: order.paymentId,
        wait: { timeoutMs: options.returnWaitMs ?? 20_000 },
      });
      if (outcome.fulfil) {
        if (order.status !== "paid") {
          order.status = "paid";
          await options.onFulfil?.(order);
        }
        return c.text(`Thank you! Order ${order.id} is paid.`);
      }
      // `next` is "fulfil" only together with `fulfil`, unless the service reports succeeded but not final.
      const [status, orderStatus, message] =
        NOT_FULFILLED[outcome.next === "fulfil" ? "keep_waiting" : outcome.next];
      if (orderStatus) order.status = orderStatus;
      return c.text(message, status);
    } catch (error) {
      if (error instanceof CheckoutReturnError)
        return c.text("This payment link is not valid for the order.", 400);
      if (error instanceof PollTimeoutError) return c.text(NOT_FULFILLED.keep_waiting[2], 202);
      throw error;
    }
  };
  app.get("/checkout/success", handleReturn);
  app.get("/checkout/error", handleReturn);

  app.onError((error, c) => {
    if (error instanceof InputValidationError)
      return c.json({ error: error.message, issues: error.issues }, 400);
    console.error(error); // safe: SDK errors never carry the API key
    if (error instanceof MerchantPaymentsError) {
      return c.json({ error: "The payment service is unavailable. Please try again." }, 502);
    }
    return c.json({ error: "internal error" }, 500);
  });
  return app;
}
