/**
 * Server-only helpers of the Next.js example: one SDK client per process, the orders database, and the fulfilment.
 * The checkout flow itself is in `examples/shared/checkout-flow.ts`, shared with the Express and Hono examples.
 *
 * Only route handlers (server code) import this module. Never import it from a client component: the API key
 * would end up in the browser bundle (the SDK refuses to run in a browser page anyway).
 *
 * @module
 */
import { MerchantPaymentsClient } from "merchant-payments";
import { type Order, type Orders, openOrders, type Sql } from "../../shared/orders";

export type { Order };

let client: MerchantPaymentsClient | undefined;

/** The shared client, configured from `MERCHANT_PAYMENTS_API_KEY`, `…_BASE_URL` and `…_MERCHANT_ID`. */
export function paymentsClient(): MerchantPaymentsClient {
  client ??= new MerchantPaymentsClient();
  return client;
}

/** Public origin of the site, for the return URLs (https against the real service). */
export function publicUrl(): string {
  const url = process.env.PUBLIC_URL;
  if (!url) throw new Error("Set PUBLIC_URL to the site's public origin, e.g. https://shop.example");
  return url.replace(/\/+$/, "");
}

let opening: Promise<Orders> | undefined;

/**
 * The orders database, opened once per process: the PostgreSQL server of `DATABASE_URL` (what a deployment with
 * several instances or serverless functions needs), else an embedded PGlite in `SHOP_DATA_DIR` (default
 * `.data/nextjs-shop`), fine for `next dev` and a single server.
 */
export function shopOrders(): Promise<Orders> {
  opening ??= openOrders({
    url: process.env.DATABASE_URL,
    dataDir: process.env.SHOP_DATA_DIR ?? ".data/nextjs-shop",
  }).catch((error: unknown) => {
    opening = undefined; // try again on the next request
    throw error;
  });
  return opening;
}

/**
 * Ships an order. Called once per order, inside the transaction that marks it fulfilled, after the service
 * confirmed the payment succeeded: a throw rolls the fulfilment back, to be retried by the next return or worker.
 */
export async function fulfil(order: Order, _tx: Sql): Promise<void> {
  console.log(`fulfilling ${order.id} (${order.amount} ${order.currency}, payment ${order.paymentId})`);
}

/** Forgets the client and closes the orders database (tests, shutdown). */
export async function closeShop(): Promise<void> {
  client = undefined;
  const orders = opening;
  opening = undefined;
  await (await orders?.catch(() => undefined))?.close();
}
