/**
 * Redirect checkout with Hono: the same flow as the Express example, on web-standard `Request`/`Response`, so it
 * runs on Node (`@hono/node-server`), Bun, Deno or a serverless runtime alike. Keep the API key on the server
 * side: never in a browser bundle.
 *
 * - `POST /orders` (`{ amount, currency }`): stores the order with its idempotency key and creates its checkout
 *   (`placeOrder`: `client.checkout.create` under that key), 303 to `gatewayUrl`.
 * - `GET /checkout/success` and `GET /checkout/error`: verify the return server-side (`handleReturn`:
 *   `client.checkout.verifyReturn`); fulfil, once, only on `outcome.fulfil`.
 * - `GET /orders/:id`: the order as JSON.
 *
 * The flow itself, shared with the Express and Next.js examples, is in `examples/shared/checkout-flow.ts`, and the
 * orders are rows of a SQL database (`examples/shared/orders.ts`, opened by the caller with `openOrders`); this
 * file is the Hono wiring around them. On a serverless runtime, give `openOrders` a server's `DATABASE_URL`: an
 * embedded database lives in one instance only.
 *
 * The test (`test/examples/hono.test.ts`) drives it with `app.request(…)`, no port needed.
 *
 * @module
 */
import { type Context, Hono } from "hono";
import { InputValidationError, type MerchantPaymentsClient, MerchantPaymentsError } from "merchant-payments";
import {
  type FulfilHandler,
  handleReturn,
  INVALID_ORDER_INPUT,
  type Order,
  type Orders,
  orderInput,
  placeOrder,
} from "../shared/checkout-flow";

export type { Order, Orders };

/** Options of {@link createApp}. */
export interface AppOptions {
  /** Public origin of the shop, used for the return URLs. Must be https against the real service. */
  publicUrl: string;
  /** How long a return waits for a payment still processing. Default 10 s. */
  returnWaitMs?: number;
  /** Called once per order, in the fulfilling transaction, when its payment is verified as succeeded. */
  onFulfil?: FulfilHandler;
}

/** The Hono app of the shop, keeping its orders in `orders`. */
export function createApp(client: MerchantPaymentsClient, orders: Orders, options: AppOptions): Hono {
  const app = new Hono();

  app.post("/orders", async (c) => {
    const input = orderInput(await c.req.json().catch(() => ({})));
    if (!input) return c.json({ error: INVALID_ORDER_INPUT }, 400);
    const { gatewayUrl } = await placeOrder(client, orders, input, (order) => {
      const back = (path: string) => `${options.publicUrl}${path}?order=${encodeURIComponent(order.id)}`;
      return { successUrl: back("/checkout/success"), errorUrl: back("/checkout/error") };
    });
    return c.redirect(gatewayUrl, 303);
  });

  app.get("/orders/:id", async (c) => {
    const order = await orders.get(c.req.param("id"));
    return order ? c.json(order) : c.json({ error: "no such order" }, 404);
  });

  const onReturn = async (c: Context) => {
    // The full return URL; only its payment_id matters.
    const { status, message } = await handleReturn(client, orders, c.req.query("order"), c.req.url, {
      waitMs: options.returnWaitMs,
      onFulfil: options.onFulfil,
    });
    return c.text(message, status);
  };
  app.get("/checkout/success", onReturn);
  app.get("/checkout/error", onReturn);

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
