/**
 * What the buyer reads on the portal: token amounts in whole tokens, network names, plain status words.
 * Amounts use string and bigint arithmetic only (a float would print 19.990000000000002).
 *
 * @module
 */

import type { MockPaymentOption } from "../store/options.js";
import { mockUsdRate } from "../store/tokens.js";
import type { PaymentStatus } from "../store/types.js";

/** Fraction digits a token amount keeps even when they are zeros (`42.50 USDC`, not `42.5 USDC`). */
const MIN_TOKEN_FRACTION_DIGITS = 2;

/** Groups the digits of a whole number by thousands: `1234567` → `1,234,567`. */
function groupThousands(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * A token amount in whole tokens from its smallest units: `formatTokenAmount("19990000", 6)` → `19.99`.
 * Trailing zeros go, down to two fraction digits. A value that is not a non-negative integer is shown as is.
 */
export function formatTokenAmount(smallestUnits: string, decimals: number): string {
  if (!/^\d+$/.test(smallestUnits) || !Number.isInteger(decimals) || decimals < 0) return smallestUnits;
  const digits = BigInt(smallestUnits).toString();
  if (decimals === 0) return groupThousands(digits);
  const padded = digits.padStart(decimals + 1, "0");
  const whole = padded.slice(0, -decimals);
  const keep = Math.min(decimals, MIN_TOKEN_FRACTION_DIGITS);
  let fraction = padded.slice(-decimals);
  while (fraction.length > keep && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  return fraction === "" ? groupThousands(whole) : `${groupThousands(whole)}.${fraction}`;
}

/** Names of the networks a buyer is likely to meet, by CAIP-2 chain id. */
const NETWORK_NAMES: Readonly<Record<string, string>> = {
  "eip155:1": "Ethereum",
  "eip155:10": "OP Mainnet",
  "eip155:56": "BNB Smart Chain",
  "eip155:137": "Polygon",
  "eip155:8453": "Base",
  "eip155:42161": "Arbitrum One",
  "eip155:43114": "Avalanche C-Chain",
  "eip155:11155111": "Ethereum Sepolia",
  "eip155:84532": "Base Sepolia",
  "eip155:80002": "Polygon Amoy",
  "eip155:421614": "Arbitrum Sepolia",
  "eip155:11155420": "OP Sepolia",
  "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": "Solana",
  "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1": "Solana Devnet",
};

/** The network's name (`eip155:84532` → `Base Sepolia`); an unknown EVM chain reads `chain 31337`. */
export function networkName(chainId: string): string {
  const known = NETWORK_NAMES[chainId];
  if (known) return known;
  const evm = /^eip155:(\d+)$/.exec(chainId);
  if (evm) return `chain ${evm[1]}`;
  return chainId === "" ? "an unknown network" : chainId;
}

/** How a payment option reads: `19.99 USDC on Base Sepolia`. */
export function optionLabel(option: MockPaymentOption): string {
  const amount = formatTokenAmount(option.amount.value, option.decimals);
  return `${amount} ${option.symbol} on ${networkName(option.chainId)}`;
}

/** What the portal says about a status: a heading and a sentence. */
export interface StatusView {
  /** Short words for the status badge and the heading, e.g. `Paid`. */
  title: string;
  /** One sentence telling the buyer where things stand and what to do. */
  message: string;
  /** Tone of the badge (colour): waiting, busy, good or bad news. */
  tone: "waiting" | "busy" | "good" | "bad";
}

/** The portal's words for every status; `{merchant}` is replaced by the merchant's name in the page. */
export const STATUS_VIEWS: Readonly<Record<PaymentStatus, StatusView>> = {
  requires_action: {
    title: "Waiting for payment",
    message: "Choose how to pay, then confirm in your wallet.",
    tone: "waiting",
  },
  processing: {
    title: "Processing…",
    message: "Your payment was sent. We are waiting for the network to confirm it; keep this page open.",
    tone: "busy",
  },
  succeeded: { title: "Paid", message: "Thank you! {merchant} has received your payment.", tone: "good" },
  failed: {
    title: "Payment failed",
    message: "The payment did not go through. You can try again from the shop.",
    tone: "bad",
  },
  expired: {
    title: "Payment expired",
    message: "This payment request expired before it was paid. Start a new payment from the shop.",
    tone: "bad",
  },
  cancelled: { title: "Payment cancelled", message: "{merchant} cancelled this payment.", tone: "bad" },
};

/** What the page adds under the status message when there is no way back to the shop (redirects off). */
export const CLOSE_PAGE_HINT = "You can close this page.";

/**
 * The time left before expiry in words, never negative: `14 min 59 s`, `1 h 02 min 03 s`, `9 s`. Units are named so
 * that it never reads as a time of day (`14:59`).
 */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number): string => String(n).padStart(2, "0");
  if (h > 0) return `${h} h ${two(m)} min ${two(s)} s`;
  return m > 0 ? `${m} min ${two(s)} s` : `${s} s`;
}

/** Plain micro-dollars as a short decimal: `6700n` → `0.0067`. */
function microToDecimal(micro: bigint): string {
  const whole = micro / 1_000_000n;
  const fraction = (micro % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`;
}

/** What the page says of the conversion: the mock's own fixed rate, never a market price. */
export function rateNote(currency: string): string {
  const { micro, known } = mockUsdRate(currency);
  if (currency === "USD")
    return "Token amounts at the mock's fixed rate of 1 token = 1 USD (not a market price).";
  const rate = `1 ${currency} = ${microToDecimal(micro)} USD`;
  return known
    ? `Token amounts at the mock's own fixed rate ${rate}, with 1 token = 1 USD (not a market price).`
    : `The mock has no rate for ${currency}: token amounts take ${rate} (not a market price).`;
}
