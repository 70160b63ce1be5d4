/**
 * The payment vocabulary as plain values and predicates (no zod): the documented statuses, the `isFinal` rule's
 * terminal set, the one reading to fulfil on, and where a creation answer keeps the wallet link.
 *
 * @module
 */
import { isBuyerPageUrl } from "../validate/rules.js";

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

/** Wallet URI schemes a buyer's wallet opens (`ethereum:0x...@8453/transfer?...`, WalletConnect's `wc:`). */
const WALLET_URI_RE = /^(ethereum|solana|bitcoin|litecoin|tron|wc):\S+$/i;

/**
 * True when `value` is a link a buyer's wallet may be sent to: a wallet URI, or a web address by the one rule for
 * buyer pages ({@link isBuyerPageUrl}: `https:`, or plain `http:` to a loopback host). Never `javascript:`, `data:`,
 * `file:` or plain `http:` elsewhere: the link is rendered as a button or a QR code for the buyer.
 */
export function isWalletLink(value: unknown): value is string {
  return typeof value === "string" && (WALLET_URI_RE.test(value) || isBuyerPageUrl(value));
}

/** The fields the fallback skips: {@link findWalletLink} has looked in them first. */
const NAMED_LINK_FIELDS: ReadonlySet<string> = new Set(WALLET_LINK_FIELDS);

/** Field names the fallback never takes a link from: pictures of the merchant, and ids the service echoes. */
const NOT_A_LINK_FIELD_RE =
  /image|img|logo|icon|avatar|picture|photo|thumbnail|banner|^(id|paymentId|referenceId)$/i;

/**
 * Finds the buyer's wallet link in a payment creation answer: the first of {@link WALLET_LINK_FIELDS} that holds a
 * link (an `https:` URL, a wallet URI, or `http:` to a loopback host); else the one other top-level field that holds
 * one, if there is exactly one (two would be a guess). The fallback never reads a field named like a picture
 * (`iconUrl`, `logo`, `qrImage`) or an id (`referenceId`, which echoes the merchant's own order id), nor a value equal
 * to the echoed `referenceId`.
 *
 * @returns The link, or `undefined` when there is none (or more than one candidate outside the named fields).
 */
export function findWalletLink(answer: Readonly<Record<string, unknown>>): string | undefined {
  // Each field read by its name, in WALLET_LINK_FIELDS' order (a test holds the two together): a loop over the names
  // reads a changing name at one place, which V8 serves by a megamorphic lookup per name (about 150 instructions
  // each, counted under valgrind); a name read at a place of its own is one load, and the chain allocates nothing.
  return (
    linkIn(answer["link"]) ??
    linkIn(answer["walletLink"]) ??
    linkIn(answer["walletUrl"]) ??
    linkIn(answer["deepLink"]) ??
    linkIn(answer["paymentLink"]) ??
    linkIn(answer["paymentUrl"]) ??
    linkIn(answer["url"]) ??
    linkIn(answer["uri"]) ??
    linkIn(answer["checkoutUrl"]) ??
    linkIn(answer["gatewayUrl"]) ??
    theOtherLink(answer)
  );
}

/** `value` when it is a wallet link (see {@link isWalletLink}), else `undefined`. */
function linkIn(value: unknown): string | undefined {
  return isWalletLink(value) ? value : undefined;
}

/** The link in a field outside {@link WALLET_LINK_FIELDS}, when exactly one holds one. */
function theOtherLink(answer: Readonly<Record<string, unknown>>): string | undefined {
  // One pass, ended by a second candidate: an answer may hold thousands of fields.
  let found: string | undefined;
  for (const field of Object.keys(answer)) {
    const value = answer[field];
    if (NAMED_LINK_FIELDS.has(field) || NOT_A_LINK_FIELD_RE.test(field) || value === answer.referenceId)
      continue;
    if (!isWalletLink(value)) continue;
    if (found !== undefined) return undefined;
    found = value;
  }
  return found;
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
export function isFinalPaymentStatus(result: {
  /** The payment status, as the service sent it. */
  readonly status: string;
  /** The service's `isFinal`, as it sent it. */
  readonly isFinal: boolean;
}): boolean {
  return result.isFinal === true && isTerminalPaymentStatus(result.status);
}

/**
 * True only when the payment succeeded and the answer says so finally: `status` is `succeeded` and `isFinal` is
 * `true`. The one reading on which to fulfil an order; a contradictory answer (read in tolerant mode) is never
 * fulfillable.
 */
export function isFulfillable(result: {
  /** The payment status, as the service sent it. */
  readonly status: string;
  /** The service's `isFinal`, as it sent it. */
  readonly isFinal: boolean;
}): boolean {
  return result.status === "succeeded" && result.isFinal === true;
}

/** The known cancellation reasons. Others may appear and still parse. */
export const CANCELLATION_REASONS = ["cancelled_by_merchant"] as const;
