/**
 * Input checks of the mock: CAIP identifiers, amounts, redirect URLs.
 *
 * @module
 */

const CAIP19 =
  /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32})\/([-a-z0-9]{3,8}):([-.%a-zA-Z0-9]{1,128})(\/[-.%a-zA-Z0-9]{1,78})?$/;
const CAIP10 = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32}):([-.%a-zA-Z0-9]{1,128})$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

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
  const m = CAIP19.exec(value);
  if (!m) return "must be a CAIP-19 asset id (<chain_namespace>:<chain_ref>/<asset_namespace>:<asset_ref>)";
  const [, ns, ref, assetNs, assetRef] = m as unknown as [string, string, string, string, string];
  if (ns === "eip155" && !/^[0-9]+$/.test(ref)) return "eip155 chain reference must be a decimal chain id";
  if (ns === "eip155" && assetNs === "erc20" && !EVM_ADDRESS.test(assetRef)) {
    return "erc20 asset reference must be a 0x-prefixed 20-byte address";
  }
  return {
    chainId: `${ns}:${ref}`,
    chainNamespace: ns,
    chainReference: ref,
    assetNamespace: assetNs,
    assetReference: assetRef,
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
  const m = CAIP10.exec(value);
  if (!m) return "must be a CAIP-10 account id (<chain_namespace>:<chain_ref>:<address>)";
  const [, ns, ref, address] = m as unknown as [string, string, string, string];
  if (ns === "eip155" && !EVM_ADDRESS.test(address)) return "eip155 address must be 0x-prefixed 20 bytes";
  return { chainId: `${ns}:${ref}`, address };
}

/** True for a 0x-prefixed 20-byte hex address. */
export function isEvmAddress(value: string): boolean {
  return EVM_ADDRESS.test(value);
}

const ZERO_DIGIT_CURRENCIES = new Set([
  "BIF",
  "CLP",
  "DJF",
  "GNF",
  "ISK",
  "JPY",
  "KMF",
  "KRW",
  "PYG",
  "RWF",
  "UGX",
  "VND",
  "VUV",
  "XAF",
  "XOF",
  "XPF",
]);
const THREE_DIGIT_CURRENCIES = new Set(["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]);

/** Number of minor-unit digits of an ISO 4217 currency (2 unless known otherwise). */
export function currencyDigits(code: string): number {
  if (ZERO_DIGIT_CURRENCIES.has(code)) return 0;
  if (THREE_DIGIT_CURRENCIES.has(code)) return 3;
  return 2;
}

/** Checks a requested amount; returns the currency code or an error message. */
export function checkRequestedAmount(value: unknown): { currency: string; value: string } | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "must be an object";
  const { unit, value: v } = value as Record<string, unknown>;
  if (typeof unit !== "string" || !/^iso4217\/[A-Z]{3}$/.test(unit)) {
    return "unit must be iso4217/<CURRENCY_CODE> (three upper-case letters)";
  }
  if (typeof v !== "string" || !/^[0-9]{1,30}$/.test(v)) {
    return "value must be an integer in minor units as a decimal string";
  }
  if (/^0+$/.test(v)) return "value must be greater than zero";
  return { currency: unit.slice(8), value: v.replace(/^0+/, "") };
}

/** Formats a minor-unit amount for display, e.g. `12.34 USD`. */
export function formatAmount(value: string, currency: string): string {
  const digits = currencyDigits(currency);
  if (digits === 0) return `${value} ${currency}`;
  const padded = value.padStart(digits + 1, "0");
  const major = padded.slice(0, -digits).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${major}.${padded.slice(-digits)} ${currency}`;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** True when `url` may be used as a redirect target (HTTPS, or HTTP loopback when allowed). */
export function isRedirectUrl(url: unknown, allowLoopback: boolean): url is string {
  if (typeof url !== "string") return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.hostname === "") return false;
  if (parsed.protocol === "https:") return true;
  return allowLoopback && parsed.protocol === "http:" && LOOPBACK_HOSTS.has(parsed.hostname);
}

/** Appends `payment_id=<id>` to a redirect URL (with `&` when it already has a query; keeps the fragment). */
export function withPaymentId(url: string, paymentId: string): string {
  const hashAt = url.indexOf("#");
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : url.slice(hashAt);
  const sep = base.includes("?") ? (base.endsWith("?") || base.endsWith("&") ? "" : "&") : "?";
  return `${base}${sep}payment_id=${encodeURIComponent(paymentId)}${hash}`;
}
