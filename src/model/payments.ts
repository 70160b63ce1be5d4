/**
 * The payment vocabulary as plain values, without zod: the documented statuses, the `isFinal` rule's terminal
 * set, the one reading to fulfil on, and where a creation answer keeps the wallet link. Importing the SDK loads this,
 * never the schemas: zod is loaded with the first call.
 *
 * @module
 */
import type { PaymentStatusResult } from "../schemas/payments.js";
import { isHttpsUrl } from "../validate/rules.js";

/**
 * The fields that may hold the buyer's wallet link in the answer of `POST /v1/payments`, in the order they are
 * tried (the document leaves the link's field name open). The exact word first, then names that say "wallet", then
 * "payment", then generic names, then the names of a portal address.
 */
export const WALLET_LINK_FIELDS = [
  "link",
  "walletLink",
  "walletUrl",
  "deepLink",
  "paymentLink",
  "paymentUrl",
  "url",
  "uri",
  "checkoutUrl",
  "gatewayUrl",
] as const;

/** An absolute URI: a scheme, a colon, then no whitespace (`https://...`, `ethereum:0x...@8453/transfer?...`). */
const ABSOLUTE_URI_RE = /^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/;

/** Wallet URI schemes recognised in a field whose name is not in {@link WALLET_LINK_FIELDS}. */
const WALLET_URI_RE = /^(ethereum|solana|bitcoin|litecoin|tron|wc):\S+$/i;

/**
 * Finds the buyer's wallet link in a payment creation answer: the first of {@link WALLET_LINK_FIELDS} that holds an
 * absolute URI; else the one other top-level string field that holds an `https:` URL or a wallet URI (`ethereum:`,
 * `solana:`, `bitcoin:`, `litecoin:`, `tron:`, `wc:`), if there is exactly one (two would be a guess).
 *
 * @returns The link, or `undefined` when there is none (or more than one candidate outside the named fields).
 */
export function findWalletLink(answer: Record<string, unknown>): string | undefined {
  for (const field of WALLET_LINK_FIELDS) {
    const value = answer[field];
    if (typeof value === "string" && ABSOLUTE_URI_RE.test(value)) return value;
  }
  const named = new Set<string>([...WALLET_LINK_FIELDS, "id", "paymentId"]);
  const others = Object.entries(answer).filter(
    ([field, value]) =>
      !named.has(field) && typeof value === "string" && (isHttpsUrl(value) || WALLET_URI_RE.test(value)),
  );
  return others.length === 1 ? (others[0]?.[1] as string) : undefined;
}

/** Every payment status the interface documents. Others may appear and still parse. */
export const PAYMENT_STATUSES = [
  "requires_action",
  "processing",
  "succeeded",
  "failed",
  "expired",
  "cancelled",
] as const;

/** A documented payment status. */
export type KnownPaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The statuses after which a payment never changes again (`isFinal` is true exactly for these). */
export const TERMINAL_PAYMENT_STATUSES = ["succeeded", "failed", "expired", "cancelled"] as const;

/** A terminal payment status. */
export type TerminalPaymentStatus = (typeof TERMINAL_PAYMENT_STATUSES)[number];

const TERMINAL = new Set<string>(TERMINAL_PAYMENT_STATUSES);

/**
 * True when `status` is one of the documented terminal statuses. An unknown status is never
 * terminal.
 */
export function isTerminalPaymentStatus(status: string): status is TerminalPaymentStatus {
  return TERMINAL.has(status);
}

/**
 * True only when the service says the payment is final (`isFinal` is exactly `true`) about a status the interface
 * documents as terminal. A contradictory answer read in tolerant mode (`isFinal: "true"`, an unknown status claiming
 * to be final, `failed` with `isFinal: false`) is not final: keep waiting. Polling ends on this, and an order is
 * marked unpaid only on a final `failed`, `expired` or `cancelled`.
 */
export function isFinalPaymentStatus(result: Pick<PaymentStatusResult, "status" | "isFinal">): boolean {
  return result.isFinal === true && isTerminalPaymentStatus(result.status);
}

/**
 * True only when the payment succeeded and the answer says so finally: `status` is `succeeded` and `isFinal` is
 * `true`. The one reading on which to fulfil an order; a contradictory answer (read in tolerant mode) is never
 * fulfillable.
 */
export function isFulfillable(result: Pick<PaymentStatusResult, "status" | "isFinal">): boolean {
  return result.status === "succeeded" && result.isFinal === true;
}

/** The known cancellation reasons. Others may appear and still parse. */
export const CANCELLATION_REASONS = ["cancelled_by_merchant"] as const;
