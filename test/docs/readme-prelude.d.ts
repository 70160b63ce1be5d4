/**
 * What a README block may take from the merchant's backend around it. Only names a backend really has: a client, the
 * order being paid, a database of orders, the incoming request. Nothing here stands in for the SDK.
 */
import type { MerchantPaymentsClient } from "merchant-payments";

declare global {
  /** A shop's order, as the README's examples store it. */
  interface ShopOrder {
    id: string;
    /** Minor units, e.g. "1999". */
    totalMinor: string;
    /** The idempotency key of the order's checkout, stored with the order before the checkout is created. */
    checkoutKey: string;
    paymentId?: string | undefined;
  }
  /** The merchant's configured client. */
  const client: MerchantPaymentsClient;
  const order: ShopOrder;
  const paymentId: string;
  const signal: AbortSignal;
  /** The incoming HTTP request of the return page. */
  const req: { originalUrl: string };
  /** The merchant's own database. */
  const db: {
    orders: {
      create(fields: { totalMinor: string; checkoutKey: string }): Promise<ShopOrder>;
      get(id: string): Promise<ShopOrder>;
      update(id: string, fields: Partial<ShopOrder>): Promise<void>;
      /** Marks the order fulfilled in one conditional update; true only for the call that changed it. */
      markFulfilled(id: string): Promise<boolean>;
    };
  };
  function ship(order: ShopOrder): Promise<void>;
  function log(...values: unknown[]): void;
}
