/**
 * Server-only helpers of the Next.js example: one SDK client per process, the order store, and the fulfilment.
 * The checkout flow itself is in `examples/shared/checkout-flow.ts`, shared with the Express and Hono examples.
 *
 * Only route handlers (server code) import this module. Never import it from a client component: the API key
 * would end up in the browser bundle (the SDK refuses to run in a browser page anyway).
 *
 * @module
 */
import { MerchantPaymentsClient } from "merchant-payments";
import type { Order, OrderStore } from "../../shared/checkout-flow";

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

/** The orders (an in-memory map standing in for your database: per process, so not shared between instances). */
export const orders: OrderStore = new Map();

/** Ships an order. Called once per order, after the service confirmed the payment succeeded. */
export async function fulfil(order: Order): Promise<void> {
  console.log(`fulfilling ${order.id} (${order.amount} ${order.currency}, payment ${order.paymentId})`);
}

/** Forgets every client and order (tests). */
export function resetShop(): void {
  client = undefined;
  orders.clear();
}
