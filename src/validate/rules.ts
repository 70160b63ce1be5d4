/**
 * The rules an input must meet, shared by the SDK (which checks before sending) and its mock (which checks what it
 * receives): one rule, one place. Plain functions and literals, no zod, so that both sides and the bundle can use them.
 *
 * @module
 */

// ---------------------------------------------------------------------------------------------
// Hosts and URLs
// ---------------------------------------------------------------------------------------------

/**
 * True for `localhost`, 127.0.0.0/8 and `[::1]`: addresses that never leave this machine. Takes a `URL`'s
 * `hostname`, where URL parsing has already written any IPv4 address as four decimal numbers up to 255. Names under
 * `.localhost` are not included: only some resolvers keep them on this machine, so the SDK, its schemas and the mock
 * all refuse to treat them as local (one definition, used by all three).
 */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host === "[::1]" || host === "::1" || /^127(\.\d+){3}$/.test(host);
}

/**
 * Which return URLs a client may send: `https` (the real service), `loopback-http` (a local mock on a loopback
 * `baseUrl`), `any-http` (a test-mode client under `allowInsecureHttp`: a mock in Docker Compose or CI).
 */
export type ReturnUrlRule = "https" | "loopback-http" | "any-http";

/**
 * An absolute plain `http:` URL with a host and no credentials: a return URL a test-mode checkout may use under
 * `allowInsecureHttp` (a shop in Docker Compose, `http://app:3000/...`). The SDK and the mock both decide with it.
 */
export function isPlainHttpUrl(value: string): boolean {
  if (!isTrimmed(value)) return false;
  const url = parseAbsoluteUrl(value);
  return (
    url !== undefined &&
    url.protocol === "http:" &&
    url.hostname.length > 0 &&
    url.username === "" &&
    url.password === ""
  );
}

/** An absolute `https:` URL, or with `allowLoopbackHttp` also plain `http:` to a loopback host. */
export function isHttpsUrl(value: string, allowLoopbackHttp = false): boolean {
  if (!isTrimmed(value)) return false;
  const url = parseAbsoluteUrl(value);
  if (url === undefined) return false;
  if (allowLoopbackHttp && url.protocol === "http:") return isLoopback(url.hostname);
  // No host to check: the URL parser refuses an https URL without one (`https://`, `https://:443/`).
  return url.protocol === "https:";
}

/**
 * True when `value` has no white space at either end, as `value === value.trim()` says: told from its two end
 * characters when both are printable ASCII (white space never is), as a URL's almost always are. `trim` itself
 * scans for every kind of white space on every creation answer's link.
 */
function isTrimmed(value: string): boolean {
  return (
    (isPrintableAscii(value.charCodeAt(0)) && isPrintableAscii(value.charCodeAt(value.length - 1))) ||
    value === value.trim()
  );
}

/** `!` to `~`: ASCII without controls and space. (`NaN`, an empty string's character, is not.) */
function isPrintableAscii(code: number): boolean {
  return code > 0x20 && code < 0x7f;
}

/**
 * `value` as an absolute URL, or `undefined`. `URL.parse` where the runtime has it: a refused `new URL` builds an
 * exception (about 14 µs), and a creation answer's wallet-link search tries every string field (a 1 MB answer of
 * plain strings took 0.8 s to search, now 20 to 50 ms); `new URL` in a `try` elsewhere. Both are the same parser.
 */
function parseAbsoluteUrl(value: string): URL | undefined {
  // An absolute URL has a scheme, and a scheme ends with ":": most plain strings stop here.
  if (!value.includes(":")) return undefined;
  if (typeof URL.parse === "function") return URL.parse(value) ?? undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * True when `value` is a web address the SDK may hand over for a buyer to open (checkout's `gatewayUrl`, the web
 * form of a payment's wallet link): an absolute `https:` URL, or plain `http:` to a loopback host (the local mock's
 * own portal; such a link never leaves the machine). Never `javascript:`, `data:`, `file:`, a relative or empty URL,
 * or plain `http:` elsewhere: the merchant redirects the buyer to it or renders it as a button. The one rule for
 * every such address.
 */
export function isBuyerPageUrl(value: unknown): value is string {
  return typeof value === "string" && isHttpsUrl(value, true);
}

/** Why a buyer page URL was refused (see {@link isBuyerPageUrl}). */
export const BUYER_PAGE_URL_PROBLEM =
  "must be an absolute https URL (or http to a loopback host) for the buyer to open";

// ---------------------------------------------------------------------------------------------
// Versions and contacts
// ---------------------------------------------------------------------------------------------

/** `YYYY-MM-DD`, optionally followed by a suffix such as `.preview`. */
export const API_VERSION_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(\.[A-Za-z0-9-]+)?$/;

/** An e-mail address: one `@`, no whitespace, a dotted domain. */
export const EMAIL_RE = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** The longest e-mail address accepted (RFC 5321's path limit, less the angle brackets). */
export const EMAIL_MAX_LENGTH = 254;

/** True for an e-mail address of at most {@link EMAIL_MAX_LENGTH} characters (the caller trims it first). */
export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_RE.test(value);
}

// ---------------------------------------------------------------------------------------------
// CAIP identifiers
// ---------------------------------------------------------------------------------------------

// The CAIP specs' parts: namespace [-a-z0-9]{3,8}, chain reference [-_a-zA-Z0-9]{1,32}, account address and asset
// reference [-.%a-zA-Z0-9]{1,128}, token id [-.%a-zA-Z0-9]{1,78}. Written out as literals, which a bundler can drop
// when unused (a RegExp built at load time stays).
/** CAIP-2 `namespace:reference`. */
export const CAIP2_RE = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32})$/;
/** CAIP-10 `chain_id:address`. */
export const CAIP10_RE = /^([-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}):([-.%a-zA-Z0-9]{1,128})$/;
/** CAIP-19 `chain_id/asset_namespace:asset_reference[/token_id]`. */
export const CAIP19_RE =
  /^([-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32})\/([-a-z0-9]{3,8}):([-.%a-zA-Z0-9]{1,128})(?:\/([-.%a-zA-Z0-9]{1,78}))?$/;

/** A 0x-prefixed 20-byte hex address, as every `eip155` account and ERC-20 contract is. */
export const EVM_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/**
 * What is wrong with a CAIP-10 account id, or `undefined` when it is valid: the CAIP form, and on `eip155` chains a
 * decimal chain id and a 0x 20-byte address (the service cannot pay to `eip155:1:0xYourAddress`).
 */
export function caip10Problem(value: string): string | undefined {
  const match = CAIP10_RE.exec(value);
  if (!match) return 'must be a CAIP-10 account id, like "eip155:1:0xab12..."';
  return eip155Problem(match[1]!, match[2], "address on an eip155 chain");
}

/**
 * What is wrong with a CAIP-19 asset id, or `undefined` when it is valid: the CAIP form, and on `eip155` chains a
 * decimal chain id and, for `erc20`, a 0x 20-byte contract address.
 */
export function caip19Problem(value: string): string | undefined {
  const parts = parseCaip19(value);
  if (!parts) return 'must be a CAIP-19 asset id, like "eip155:1/erc20:0xa0b8..."';
  const contract = parts.assetNamespace === "erc20" ? parts.assetReference : undefined;
  return eip155Problem(parts.chainId, contract, "erc20 contract address");
}

/**
 * The `eip155` rules of a CAIP id, `undefined` on other chains: a decimal chain id, and `address` (when there is one
 * to check) a 0x-prefixed 20-byte hex address, which `what` names in the message.
 */
function eip155Problem(chainId: string, address: string | undefined, what: string): string | undefined {
  const [namespace, reference] = chainId.split(":") as [string, string];
  if (namespace !== "eip155") return undefined;
  if (!/^[0-9]+$/.test(reference)) return "must have a decimal eip155 chain id, like eip155:1";
  if (address !== undefined && !EVM_ADDRESS_RE.test(address))
    return `must have a 0x-prefixed 20-byte hex ${what}`;
  return undefined;
}

/** The parts of a CAIP-2 chain id such as `eip155:1`. */
export interface Caip2Parts {
  /** The chain namespace, for example `eip155`. */
  namespace: string;
  /** The chain reference within the namespace, for example `1`. */
  reference: string;
}

/** The parts of a CAIP-10 account id such as `eip155:1:0xab...`. */
export interface Caip10Parts {
  /** The CAIP-2 chain id, for example `eip155:1`. */
  chainId: string;
  /** The account address on that chain. */
  address: string;
}

/** The parts of a CAIP-19 asset id such as `eip155:1/erc20:0xa0b8...`. */
export interface Caip19Parts {
  /** The CAIP-2 chain id, for example `eip155:1`. */
  chainId: string;
  /** The asset namespace, for example `erc20` or `slip44`. */
  assetNamespace: string;
  /** The asset reference, for example a token contract address. */
  assetReference: string;
  /** The token id, for non-fungible assets (`.../erc721:0x.../42`). */
  tokenId?: string;
}

/**
 * Splits a CAIP-2 chain id (`namespace:reference`).
 *
 * @returns The parts, or `undefined` when `value` is not a CAIP-2 chain id.
 */
export function parseCaip2(value: string): Caip2Parts | undefined {
  const match = CAIP2_RE.exec(value);
  if (!match) return undefined;
  return { namespace: match[1]!, reference: match[2]! };
}

/**
 * Splits a CAIP-10 account id (`namespace:reference:address`).
 *
 * @returns The parts, or `undefined` when `value` is not a CAIP-10 account id.
 */
export function parseCaip10(value: string): Caip10Parts | undefined {
  const match = CAIP10_RE.exec(value);
  if (!match) return undefined;
  return { chainId: match[1]!, address: match[2]! };
}

/**
 * Splits a CAIP-19 asset id (`chain_id/asset_namespace:asset_reference[/token_id]`).
 *
 * @returns The parts, or `undefined` when `value` is not a CAIP-19 asset id.
 */
export function parseCaip19(value: string): Caip19Parts | undefined {
  const match = CAIP19_RE.exec(value);
  if (!match) return undefined;
  const parts: Caip19Parts = {
    chainId: match[1]!,
    assetNamespace: match[2]!,
    assetReference: match[3]!,
  };
  if (match[4] !== undefined) parts.tokenId = match[4];
  return parts;
}

// ---------------------------------------------------------------------------------------------
// Amounts
// ---------------------------------------------------------------------------------------------

/** A non-negative integer as a decimal string: no sign, fraction, exponent, whitespace or leading zero. */
export const MINOR_UNITS_RE = /^(?:0|[1-9][0-9]*)$/;
/** The most digits a payment amount may have (far beyond any price; keeps amounts exact in every system). */
export const PAYMENT_AMOUNT_MAX_DIGITS = 30;

/**
 * What is wrong with the `value` of a requested payment amount, or `undefined` when it is valid: minor units as a
 * decimal string ({@link MINOR_UNITS_RE}), greater than zero, at most {@link PAYMENT_AMOUNT_MAX_DIGITS} digits.
 */
export function paymentAmountProblem(value: string): string | undefined {
  if (!MINOR_UNITS_RE.test(value)) {
    return 'must be a non-negative integer in minor units, as a string like "1050" for 10.50 USD';
  }
  if (value === "0") return "must be greater than zero (a payment of nothing cannot be paid)";
  if (value.length > PAYMENT_AMOUNT_MAX_DIGITS)
    return `must have at most ${PAYMENT_AMOUNT_MAX_DIGITS} digits`;
  return undefined;
}

/** `iso4217/` followed by a three-letter upper-case currency code. */
export const ISO4217_UNIT_RE = /^iso4217\/[A-Z]{3}$/;
