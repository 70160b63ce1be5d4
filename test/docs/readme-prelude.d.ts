/**
 * What a documentation block may take from the merchant's backend around it: a configured client, a payment's id, a
 * shutdown signal and a logger. Nothing here stands in for the SDK, and nothing stands in for a database or a request:
 * a block that needs one declares it (the README's quickstart is a whole server).
 */
import type { MerchantPaymentsClient } from "merchant-payments";

declare global {
  /** The merchant's configured client. */
  const client: MerchantPaymentsClient;
  /** The id of a payment the backend stored. */
  const paymentId: string;
  /** The backend's shutdown signal. */
  const signal: AbortSignal;
  /** The backend's logger. */
  function log(...values: unknown[]): void;
}
