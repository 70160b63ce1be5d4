/**
 * Redirect checkout with Express.
 *
 * - `POST /orders` creates the order and its checkout payment, stores the `paymentId` with the order, and
 *   redirects the buyer (303) to the service's checkout portal (`gatewayUrl`).
 * - The portal sends the buyer back to `GET /checkout/success` or `GET /checkout/error` with `?payment_id=…`.
 *   Both routes do the same thing: check the `payment_id` against the one stored with the order and ask the service
 *   for the status, server-side. Which of the two URLs the buyer landed on is ignored; only `outcome.fulfil` counts.
 * - `GET /orders/:id` shows the order (what a status page or your support tooling would read).
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
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import express, { type NextFunction, type Request, type Response } from "express";
import {
  CheckoutReturnError,
  InputValidationError,
  MerchantPaymentsClient,
  MerchantPaymentsError,
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
  const orders = new Map<string, Order>();
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));

  app.post("/orders", async (req: Request, res: Response) => {
    const { amount, currency } = (req.body ?? {}) as { amount?: unknown; currency?: unknown };
    if (typeof amount !== "string" || typeof currency !== "string") {
      res.status(400).json({ error: "amount and currency are required strings" });
      return;
    }
    const order: Order = {
      id: `ord_${randomUUID()}`,
      amount,
      currency,
      paymentId: null,
      status: "awaiting_payment",
    };
    const origin = options.publicUrl ?? `${req.protocol}://${req.get("host")}`;
    // The order id rides along in the return URLs; the service appends `payment_id` to them.
    const back = (path: string) => `${origin}${path}?order=${encodeURIComponent(order.id)}`;

    const { paymentId, gatewayUrl } = await client.checkout.create(
      {
        referenceId: order.id,
        amount: money(amount, currency), // "19.99" USD -> { unit: "iso4217/USD", value: "1999" }, no floats
        successUrl: back("/checkout/success"),
        errorUrl: back("/checkout/error"),
      },
      // A key tied to the order makes the create safe to retry: never two payments for one order.
      { idempotencyKey: `checkout-${order.id}` },
    );
    order.paymentId = paymentId;
    orders.set(order.id, order);
    res.redirect(303, gatewayUrl);
  });

  app.get("/orders/:id", (req: Request, res: Response) => {
    const order = orders.get(String(req.params.id));
    if (!order) res.status(404).json({ error: "no such order" });
    else res.json(order);
  });

  // The portal sends the buyer to one of these; both verify the same way.
  const handleReturn = async (req: Request, res: Response) => {
    const order = typeof req.query.order === "string" ? orders.get(req.query.order) : undefined;
    if (!order?.paymentId) {
      res.status(404).type("text").send("Unknown order.");
      return;
    }
    try {
      const outcome = await client.checkout.verifyReturn({
        url: req.originalUrl,
        expectedPaymentId: order.paymentId,
        // The buyer may come back while the transaction is still confirming: wait a little for a final status.
        wait: { timeoutMs: options.returnWaitMs ?? 20_000 },
      });
      if (outcome.fulfil) {
        if (order.status !== "paid") {
          order.status = "paid"; // mark first: a second visit of the return URL must not ship twice
          await options.onFulfil?.(order);
        }
        res.type("text").send(`Thank you! Order ${order.id} is paid.`);
        return;
      }
      switch (outcome.next) {
        case "show_error":
          order.status = "payment_failed";
          res.status(402).type("text").send("The payment failed. You can try again.");
          return;
        case "show_expiry":
          order.status = "payment_expired";
          res.status(410).type("text").send("The payment expired. Please start a new checkout.");
          return;
        case "show_cancelled":
          order.status = "cancelled";
          res.status(409).type("text").send("The payment was cancelled.");
          return;
        default:
          res.status(202).type("text").send("Your payment is still processing. We will e-mail you.");
      }
    } catch (error) {
      if (error instanceof CheckoutReturnError) {
        // Missing, repeated, or someone else's payment_id: a tampered or stale link. Never fulfil.
        res.status(400).type("text").send("This payment link is not valid for the order.");
        return;
      }
      if (error instanceof PollTimeoutError) {
        res.status(202).type("text").send("Your payment is still processing. We will e-mail you.");
        return;
      }
      throw error;
    }
  };
  app.get("/checkout/success", handleReturn);
  app.get("/checkout/error", handleReturn);

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
