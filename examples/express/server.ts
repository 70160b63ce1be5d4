/**
 * Redirect checkout with Express.
 *
 * - `POST /orders` stores the order with its idempotency key, creates its checkout payment (`placeOrder`:
 *   `client.checkout.create` under that key), stores the `paymentId` with the order, and redirects the buyer (303)
 *   to the service's checkout portal (`gatewayUrl`). If the service's answer is lost, the 502 names the order:
 *   `POST /orders/:id/checkout` repeats the creation with the stored key, which replays the same payment.
 * - The portal sends the buyer back to `GET /checkout/success` or `GET /checkout/error` with `?payment_id=…`.
 *   Both routes do the same thing (`handleReturn`: `client.checkout.verifyReturn`): check the `payment_id` against
 *   the one stored with the order and ask the service for the status, server-side. Which of the two URLs the buyer
 *   landed on is ignored; only `outcome.fulfil` counts, and an order ships once (`orders.fulfil`: a conditional
 *   update in a transaction), even when the polling worker (`examples/worker.ts`) gets there at the same time.
 * - `GET /orders/:id` shows the order (what a status page or your support tooling would read).
 *
 * The flow itself, shared with the Hono and Next.js examples, is in `examples/shared/checkout-flow.ts`, and the
 * orders are rows of a SQL database (`examples/shared/orders.ts`: embedded PGlite in `SHOP_DATA_DIR`, default
 * `.data/express-shop`, or the PostgreSQL server of `DATABASE_URL`); this file is the Express wiring around them.
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
import {
  type FulfilHandler,
  handleReturn,
  INVALID_ORDER_INPUT,
  type Order,
  type Orders,
  orderInput,
  placeOrder,
  type ReturnUrls,
  startCheckout,
} from "../shared/checkout-flow";
import { openOrders } from "../shared/orders";

export type { Order, Orders };

/** Options of {@link createApp}. */
export interface AppOptions {
  /**
   * Public origin of the shop, used to build the return URLs (`https://shop.example`). Default: the origin of the
   * request, which is fine locally; behind a proxy set this (or Express's `trust proxy`).
   */
  publicUrl?: string;
  /** How long a return waits for a payment that is still processing before showing "still processing". */
  returnWaitMs?: number;
  /** Called once per order, in the fulfilling transaction, when its payment is verified as succeeded: ship here. */
  onFulfil?: FulfilHandler;
}

/** The Express app of the shop, talking to the service through `client` and keeping its orders in `orders`. */
export function createApp(
  client: MerchantPaymentsClient,
  orders: Orders,
  options: AppOptions = {},
): express.Express {
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));

  /** The return URLs of an order: its id rides along; the service appends `payment_id` to them. */
  const returnUrls = (req: Request, order: Order): ReturnUrls => {
    const origin = options.publicUrl ?? `${req.protocol}://${req.get("host")}`;
    const back = (path: string) => `${origin}${path}?order=${encodeURIComponent(order.id)}`;
    return { successUrl: back("/checkout/success"), errorUrl: back("/checkout/error") };
  };

  app.post("/orders", async (req: Request, res: Response) => {
    const input = orderInput(req.body);
    if (!input) {
      res.status(400).json({ error: INVALID_ORDER_INPUT });
      return;
    }
    const { gatewayUrl } = await placeOrder(client, orders, input, (order) => {
      res.locals.orderId = order.id; // for the error handler: the order exists, its checkout can be retried
      return returnUrls(req, order);
    });
    res.redirect(303, gatewayUrl);
  });

  // Retries the checkout of an order whose creation answer was lost: the stored key replays the same payment.
  app.post("/orders/:id/checkout", async (req: Request, res: Response) => {
    const order = await orders.get(String(req.params.id));
    if (order?.state !== "awaiting_payment") {
      res.status(404).json({ error: "no order awaiting payment with this id" });
      return;
    }
    res.locals.orderId = order.id;
    res.redirect(303, await startCheckout(client, orders, order, returnUrls(req, order)));
  });

  app.get("/orders/:id", async (req: Request, res: Response) => {
    const order = await orders.get(String(req.params.id));
    if (!order) res.status(404).json({ error: "no such order" });
    else res.json(order);
  });

  // The portal sends the buyer to one of these; both verify the same way.
  const onReturn = async (req: Request, res: Response) => {
    const orderId = typeof req.query.order === "string" ? req.query.order : undefined;
    const { status, message } = await handleReturn(client, orders, orderId, req.originalUrl, {
      waitMs: options.returnWaitMs,
      onFulfil: options.onFulfil,
    });
    res.status(status).type("text").send(message);
  };
  app.get("/checkout/success", onReturn);
  app.get("/checkout/error", onReturn);

  // Express 5 forwards rejected promises of async handlers here.
  app.use(answerError);
  return app;
}

/** The answer to a failed request: 400 for an input the SDK refused, 502 when the service failed, else 500. */
function answerError(error: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (error instanceof InputValidationError) {
    res.status(400).json({ error: error.message, issues: error.issues });
    return;
  }
  console.error(error); // safe: the SDK never puts the API key in an error
  if (!(error instanceof MerchantPaymentsError)) {
    res.status(500).json({ error: "internal error" });
    return;
  }
  const orderId: unknown = res.locals.orderId; // set once the order exists: its checkout can be retried
  res.status(502).json({
    error: "The payment service is unavailable. Please try again.",
    ...(typeof orderId === "string" && { retry: `/orders/${encodeURIComponent(orderId)}/checkout` }),
  });
}

/**
 * Reads the configuration from the environment (`MERCHANT_PAYMENTS_*`; `DATABASE_URL` or `SHOP_DATA_DIR` for the
 * orders) and serves on `PORT` (default 3000).
 */
export async function main(): Promise<void> {
  const client = new MerchantPaymentsClient(); // apiKey, baseUrl, merchantId from MERCHANT_PAYMENTS_* env vars
  const orders = await openOrders({
    url: process.env.DATABASE_URL,
    dataDir: process.env.SHOP_DATA_DIR ?? ".data/express-shop",
  });
  const port = Number(process.env.PORT ?? 3000);
  const app = createApp(client, orders, { publicUrl: process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}` });
  const server = app.listen(port, "127.0.0.1", () => {
    console.log(`Shop on http://127.0.0.1:${port} (${client.mode} mode, service ${client.baseUrl})`);
  });
  // Stop taking requests, then close the database cleanly (PGlite writes its files on close) and exit. A signal may
  // come twice (a terminal or supervisor signals the whole process group): the shutdown runs once.
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    server.closeAllConnections();
    server.close(() => void orders.close().finally(() => process.exit(0)));
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
