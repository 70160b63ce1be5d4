/**
 * The small token table of the mock (decimals and EIP-712 domain name/version), and the conversion of
 * a requested fiat amount into token smallest units. The mock pegs one major fiat unit to one token.
 *
 * @module
 */

import { currencyDigits } from "./validation.js";

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

/** Converts a fiat amount in minor units into token smallest units (1 major unit = 1 token; rounds up). */
export function toTokenUnits(minor: string, currency: string, tokenDecimals: number): bigint {
  const digits = currencyDigits(currency);
  const v = BigInt(minor);
  if (tokenDecimals >= digits) return v * 10n ** BigInt(tokenDecimals - digits);
  const div = 10n ** BigInt(digits - tokenDecimals);
  return (v + div - 1n) / div;
}
