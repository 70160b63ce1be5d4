/**
 * Redirect checkout with Hono: the same flow as the Express example, on web-standard `Request`/`Response`, so it
 * runs on Node (`@hono/node-server`), Bun, Deno or a serverless runtime alike. Keep the API key on the server
 * side: never in a browser bundle.
 *
 * - `POST /orders` (`{ amount, currency }`): creates the order and its checkout (`startCheckout`:
 *   `client.checkout.create`), 303 to `gatewayUrl`.
 * - `GET /checkout/success` and `GET /checkout/error`: verify the return server-side (`handleReturn`:
 *   `client.checkout.verifyReturn`); fulfil, once, only on `outcome.fulfil`.
 * - `GET /orders/:id`: the order as JSON.
 *
 * The flow itself, shared with the Express and Next.js examples, is in `examples/shared/checkout-flow.ts`; this
 * file is the Hono wiring around it.
 *
 * The test (`test/examples/hono.test.ts`) drives it with `app.request(…)`, no port needed.
 *
 * @module
 */
import { type Context, Hono } from "hono";
import { InputValidationError, type MerchantPaymentsClient, MerchantPaymentsError } from "merchant-payments";
import type { Order } from "../shared/checkout-flow";
import { handleReturn, INVALID_ORDER_INPUT, newOrder, startCheckout } from "../shared/checkout-flow";

export type { Order };

/** Options of {@link createApp}. */
export interface AppOptions {
  /** Public origin of the shop, used for the return URLs. Must be https against the real service. */
  publicUrl: string;
  /** How long a return waits for a payment still processing. Default 20 s. */
  returnWaitMs?: number;
  /** Called once per order when its payment is verified as succeeded. */
  onFulfil?: (order: Order) => void | Promise<void>;
}

/** The Hono app of the shop. */
export function createApp(client: MerchantPaymentsClient, options: AppOptions): Hono {
  const orders = new Map<string, Order>(); // your database in a real app
  const app = new Hono();

  app.post("/orders", async (c) => {
    const order = newOrder(await c.req.json().catch(() => ({})));
    if (!order) return c.json({ error: INVALID_ORDER_INPUT }, 400);
    const back = (path: string) => `${options.publicUrl}${path}?order=${encodeURIComponent(order.id)}`;
    const gatewayUrl = await startCheckout(client, order, {
      successUrl: back("/checkout/success"),
      errorUrl: back("/checkout/error"),
    });
    orders.set(order.id, order);
    return c.redirect(gatewayUrl, 303);
  });

  app.get("/orders/:id", (c) => {
    const order = orders.get(c.req.param("id"));
    return order ? c.json(order) : c.json({ error: "no such order" }, 404);
  });

  const onReturn = async (c: Context) => {
    const order = orders.get(c.req.query("order") ?? "");
    // The full return URL; only its payment_id matters.
    const { status, message } = await handleReturn(client, order, c.req.url, {
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
