/**
 * The small token table of the mock (decimals and EIP-712 domain name/version), and the conversion of
 * a requested fiat amount into token smallest units at the mock's own fixed rates (every token is taken as worth
 * one US dollar). The rates are the mock's, chosen so that amounts look plausible: never a market price.
 *
 * @module
 */

import { fiatDigits } from "../../validate/currencies.js";

/** What the mock knows about a token. */
export interface MockTokenInfo {
  /** Ticker, e.g. `USDC`. */
  symbol: string;
  /** Decimals of the smallest unit. */
  decimals: number;
  /** EIP-712 domain `name`. */
  name: string;
  /** EIP-712 domain `version`. */
  version: string;
}

/** Built-in tokens, keyed by lower-case CAIP-19 asset id. */
export const DEFAULT_TOKENS: Readonly<Record<string, MockTokenInfo>> = {
  // USDC
  "eip155:1/erc20:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48": {
    symbol: "USDC",
    decimals: 6,
    name: "USD Coin",
    version: "2",
  },
  "eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913": {
    symbol: "USDC",
    decimals: 6,
    name: "USD Coin",
    version: "2",
  },
  "eip155:137/erc20:0x3c499c542cef5e3811e1192ce70d8cc03d5c3359": {
    symbol: "USDC",
    decimals: 6,
    name: "USD Coin",
    version: "2",
  },
  "eip155:42161/erc20:0xaf88d065e77c8cc2239327c5edb3a432268e5831": {
    symbol: "USDC",
    decimals: 6,
    name: "USD Coin",
    version: "2",
  },
  "eip155:11155111/erc20:0x1c7d4b196cb0c7b01d743fbc6116a902379c7238": {
    symbol: "USDC",
    decimals: 6,
    name: "USDC",
    version: "2",
  },
  "eip155:84532/erc20:0x036cbd53842c5426634e7929541ec2318f3dcf7e": {
    symbol: "USDC",
    decimals: 6,
    name: "USDC",
    version: "2",
  },
  // USDT
  "eip155:1/erc20:0xdac17f958d2ee523a2206206994597c13d831ec7": {
    symbol: "USDT",
    decimals: 6,
    name: "Tether USD",
    version: "1",
  },
  "eip155:137/erc20:0xc2132d05d31c914a87c6611c10748aeb04b58e8f": {
    symbol: "USDT",
    decimals: 6,
    name: "Tether USD",
    version: "1",
  },
};

/** Fallback for unknown tokens: 18 decimals. */
export const UNKNOWN_TOKEN: MockTokenInfo = { symbol: "TOKEN", decimals: 18, name: "Token", version: "1" };

/** Looks a token up (extra table first, then the built-in one, then the 18-decimal fallback). */
export function tokenFor(asset: string, extra?: Readonly<Record<string, MockTokenInfo>>): MockTokenInfo {
  const key = asset.toLowerCase();
  if (extra) {
    for (const [k, v] of Object.entries(extra)) if (k.toLowerCase() === key) return v;
  }
  return DEFAULT_TOKENS[key] ?? UNKNOWN_TOKEN;
}

/**
 * The mock's own fixed rates: US dollars (micro-dollars, to stay in integers) per major unit of a currency. Not a
 * market price: the mock only needs 1000 JPY to read as a few dollars, not as 1,000 dollars. A currency missing here
 * is taken at one dollar per unit (the portal says so).
 */
export const MOCK_USD_RATES: Readonly<Record<string, bigint>> = {
  USD: 1_000_000n,
  EUR: 1_100_000n,
  GBP: 1_250_000n,
  CHF: 1_100_000n,
  CAD: 730_000n,
  AUD: 650_000n,
  NZD: 600_000n,
  SGD: 740_000n,
  HKD: 128_000n,
  CNY: 140_000n,
  JPY: 6_700n,
  KRW: 730n,
  INR: 12_000n,
  BRL: 180_000n,
  MXN: 55_000n,
  SEK: 95_000n,
  NOK: 93_000n,
  DKK: 147_000n,
  PLN: 250_000n,
  KWD: 3_250_000n,
  BHD: 2_650_000n,
};

const MICRO = 1_000_000n;

/** The mock's rate of a currency (micro-dollars per major unit) and whether it is in the table. */
export function mockUsdRate(currency: string): { micro: bigint; known: boolean } {
  const micro = MOCK_USD_RATES[currency];
  return micro === undefined ? { micro: MICRO, known: false } : { micro, known: true };
}

/** Converts a fiat amount in minor units into token smallest units at the mock's rate (rounds up). */
export function toTokenUnits(minor: string, currency: string, tokenDecimals: number): bigint {
  const digits = fiatDigits(currency);
  const numerator = BigInt(minor) * mockUsdRate(currency).micro * 10n ** BigInt(tokenDecimals);
  const denominator = 10n ** BigInt(digits) * MICRO;
  return (numerator + denominator - 1n) / denominator;
}
