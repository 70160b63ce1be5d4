/**
 * Redirect checkout with Express.
 *
 * - `POST /orders` creates the order and its checkout payment (`startCheckout`: `client.checkout.create`), stores
 *   the `paymentId` with the order, and redirects the buyer (303) to the service's checkout portal (`gatewayUrl`).
 * - The portal sends the buyer back to `GET /checkout/success` or `GET /checkout/error` with `?payment_id=…`.
 *   Both routes do the same thing (`handleReturn`: `client.checkout.verifyReturn`): check the `payment_id` against
 *   the one stored with the order and ask the service for the status, server-side. Which of the two URLs the buyer
 *   landed on is ignored; only `outcome.fulfil` counts, and an order ships once.
 * - `GET /orders/:id` shows the order (what a status page or your support tooling would read).
 *
 * The flow itself, shared with the Hono and Next.js examples, is in `examples/shared/checkout-flow.ts`; this file
 * is the Express wiring around it.
 *
 * Run it against the bundled mock service (no account needed):
 *
 * ```sh
 * npx merchant-payments-mock --port 4010          # or: npx tsx src/testing/cli.ts --port 4010 in this repo
 * MERCHANT_PAYMENTS_API_KEY=mock_test_… MERCHANT_PAYMENTS_BASE_URL=http://127.0.0.1:4010 \
 *   MERCHANT_PAYMENTS_MERCHANT_ID=mrch_… npx tsx examples/express/server.ts
 * curl -i -X POST localhost:3000/orders -H 'content-type: application/json' -d '{"amount":"19.99","currency":"USD"}'
 * ```
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import express, { type NextFunction, type Request, type Response } from "express";
import { InputValidationError, MerchantPaymentsClient, MerchantPaymentsError } from "merchant-payments";
import type { Order } from "../shared/checkout-flow";
import { handleReturn, INVALID_ORDER_INPUT, newOrder, startCheckout } from "../shared/checkout-flow";

export type { Order };

/** Options of {@link createApp}. */
export interface AppOptions {
  /**
   * Public origin of the shop, used to build the return URLs (`https://shop.example`). Default: the origin of the
   * request, which is fine locally; behind a proxy set this (or Express's `trust proxy`).
   */
  publicUrl?: string;
  /** How long a return waits for a payment that is still processing before showing "still processing". */
  returnWaitMs?: number;
  /** Called once per order when its payment is verified as succeeded: ship the goods here. */
  onFulfil?: (order: Order) => void | Promise<void>;
}

/** The Express app of the shop, talking to the service through `client`. */
export function createApp(client: MerchantPaymentsClient, options: AppOptions = {}): express.Express {
  const orders = new Map<string, Order>(); // your database in a real app
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));

  app.post("/orders", async (req: Request, res: Response) => {
    const order = newOrder(req.body);
    if (!order) {
      res.status(400).json({ error: INVALID_ORDER_INPUT });
      return;
    }
    const origin = options.publicUrl ?? `${req.protocol}://${req.get("host")}`;
    // The order id rides along in the return URLs; the service appends `payment_id` to them.
    const back = (path: string) => `${origin}${path}?order=${encodeURIComponent(order.id)}`;
    const gatewayUrl = await startCheckout(client, order, {
      successUrl: back("/checkout/success"),
      errorUrl: back("/checkout/error"),
    });
    orders.set(order.id, order);
    res.redirect(303, gatewayUrl);
  });

  app.get("/orders/:id", (req: Request, res: Response) => {
    const order = orders.get(String(req.params.id));
    if (!order) res.status(404).json({ error: "no such order" });
    else res.json(order);
  });

  // The portal sends the buyer to one of these; both verify the same way.
  const onReturn = async (req: Request, res: Response) => {
    const order = typeof req.query.order === "string" ? orders.get(req.query.order) : undefined;
    const { status, message } = await handleReturn(client, order, req.originalUrl, {
      waitMs: options.returnWaitMs,
      onFulfil: options.onFulfil,
    });
    res.status(status).type("text").send(message);
  };
  app.get("/checkout/success", onReturn);
  app.get("/checkout/error", onReturn);

  // Express 5 forwards rejected promises of async handlers here.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof InputValidationError) {
      res.status(400).json({ error: error.message, issues: error.issues });
    } else if (error instanceof MerchantPaymentsError) {
      // Logging the error is safe: the SDK never puts the API key in a message.
      console.error(error);
      res.status(502).json({ error: "The payment service is unavailable. Please try again." });
    } else {
      console.error(error);
      res.status(500).json({ error: "internal error" });
    }
  });
  return app;
}

/** Reads the configuration from the environment (`MERCHANT_PAYMENTS_*`) and serves on `PORT` (default 3000). */
export function main(): void {
  const client = new MerchantPaymentsClient(); // apiKey, baseUrl, merchantId from MERCHANT_PAYMENTS_* env vars
  const port = Number(process.env.PORT ?? 3000);
  const app = createApp(client, { publicUrl: process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}` });
  app.listen(port, "127.0.0.1", () => {
    console.log(`Shop on http://127.0.0.1:${port} (${client.mode} mode, service ${client.baseUrl})`);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
