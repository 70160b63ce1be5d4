/**
 * Input checks of the mock: CAIP identifiers, amounts, redirect URLs. Every rule comes from the SDK's
 * `validate/rules.ts` and `validate/currencies.ts`, so the mock refuses exactly what the SDK refuses before sending.
 *
 * @module
 */

import { currencyProblem, fiatDigits } from "../../validate/currencies.js";
import {
  caip10Problem,
  caip19Problem,
  EVM_ADDRESS_RE,
  ISO4217_UNIT_RE,
  isHttpsUrl,
  isPlainHttpUrl,
  parseCaip10,
  parseCaip19,
  paymentAmountProblem,
} from "../../validate/rules.js";

/** A parsed CAIP-19 asset id. */
export interface ParsedAsset {
  /** CAIP-2 chain id, e.g. `eip155:8453`. */
  chainId: string;
  /** Chain namespace, e.g. `eip155`. */
  chainNamespace: string;
  /** Chain reference, e.g. `8453`. */
  chainReference: string;
  /** Asset namespace, e.g. `erc20`. */
  assetNamespace: string;
  /** Asset reference, e.g. the token contract address. */
  assetReference: string;
}

/** Parses a CAIP-19 asset id; returns an error message when invalid. */
export function parseAsset(value: unknown): ParsedAsset | string {
  if (typeof value !== "string") return "must be a string (CAIP-19 asset id)";
  const problem = caip19Problem(value);
  const parts = parseCaip19(value);
  if (problem !== undefined || !parts) return problem ?? "must be a CAIP-19 asset id";
  const [chainNamespace, chainReference] = parts.chainId.split(":") as [string, string];
  return {
    chainId: parts.chainId,
    chainNamespace,
    chainReference,
    assetNamespace: parts.assetNamespace,
    assetReference: parts.assetReference,
  };
}

/** A parsed CAIP-10 account id. */
export interface ParsedAccount {
  /** CAIP-2 chain id. */
  chainId: string;
  /** Address part. */
  address: string;
}

/** Parses a CAIP-10 account id; returns an error message when invalid. */
export function parseAccount(value: unknown): ParsedAccount | string {
  if (typeof value !== "string") return "must be a string (CAIP-10 account id)";
  const problem = caip10Problem(value);
  const parts = parseCaip10(value);
  if (problem !== undefined || !parts) return problem ?? "must be a CAIP-10 account id";
  return parts;
}

/** True for a 0x-prefixed 20-byte hex address. */
export function isEvmAddress(value: string): boolean {
  return EVM_ADDRESS_RE.test(value);
}

/** Checks a requested amount; returns the currency code or an error message. */
export function checkRequestedAmount(value: unknown): { currency: string; value: string } | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "must be an object";
  const { unit, value: v } = value as Record<string, unknown>;
  if (typeof unit !== "string" || !ISO4217_UNIT_RE.test(unit)) {
    return "unit must be iso4217/<CURRENCY_CODE> (three upper-case letters)";
  }
  // The SDK's own rule: an active ISO 4217 currency (not BTC, XAU or XTS), whose minor units the mock then knows.
  const currencyIssue = currencyProblem(unit.slice("iso4217/".length));
  if (currencyIssue !== undefined) return `unit's currency ${currencyIssue}`;
  if (typeof v !== "string") return "value must be an integer in minor units as a decimal string";
  const problem = paymentAmountProblem(v);
  if (problem !== undefined) return `value ${problem}`;
  return { currency: unit.slice("iso4217/".length), value: v };
}

/** Formats a minor-unit amount for display, e.g. `12.34 USD`. */
export function formatAmount(value: string, currency: string): string {
  const digits = fiatDigits(currency);
  if (digits === 0) return `${value} ${currency}`;
  const padded = value.padStart(digits + 1, "0");
  const major = padded.slice(0, -digits).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${major}.${padded.slice(-digits)} ${currency}`;
}

/** Which plain-http redirect URLs a payment accepts besides https. */
export interface RedirectRule {
  /** `http://` to a loopback host (localhost, 127.0.0.0/8, [::1]). */
  allowLoopback: boolean;
  /** `http://` to any host, for test-mode payments only: the SDK's `allowInsecureHttp` with a test key. */
  allowInsecureHttp: boolean;
  /** The payment's mode. */
  mode?: "test" | "live";
}

/**
 * True when `url` may be used as a redirect target: https; http to a loopback host when allowed; http to any host
 * for a test-mode payment under `allowInsecureHttp` (the SDK sends such URLs only with a test key), never in live mode.
 */
export function isRedirectUrl(url: unknown, rule: RedirectRule): url is string {
  if (typeof url !== "string") return false;
  if (isHttpsUrl(url, rule.allowLoopback)) return true;
  return rule.allowInsecureHttp && rule.mode === "test" && isPlainHttpUrl(url);
}

/** Appends `payment_id=<id>` to a redirect URL (with `&` when it already has a query; keeps the fragment). */
export function withPaymentId(url: string, paymentId: string): string {
  const hashAt = url.indexOf("#");
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : url.slice(hashAt);
  const sep = base.includes("?") ? (base.endsWith("?") || base.endsWith("&") ? "" : "&") : "?";
  return `${base}${sep}payment_id=${encodeURIComponent(paymentId)}${hash}`;
}
