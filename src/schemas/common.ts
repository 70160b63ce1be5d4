/**
 * Building blocks shared by the request and response schemas: open enums, identifiers, CAIP
 * (chain, account, asset) identifiers and amounts.
 *
 * Input schemas here are strict and carry human messages phrased without a subject
 * (`must be ...`); {@link parseInput} puts the field name in front.
 *
 * @module
 */
import * as z from "zod/mini";
import { invalidInput } from "../core/checks.js";
import { isLoopback } from "../core/loopback.js";

/**
 * An enum that is open for the future: the known values are offered by autocomplete, and any other
 * string is still accepted (the service may add values without notice).
 */
export type OpenEnum<Known extends string> = Known | (string & {});

/**
 * A response-side schema for an open enum: any string parses, typed as `Known | (string & {})`.
 *
 * @param _known The known values. Kept for documentation; they never restrict parsing.
 */
export function openEnum<const Known extends string>(
  _known: readonly Known[],
): z.ZodMiniType<OpenEnum<Known>, unknown> {
  // Any string parses: the known values only shape the type (autocomplete), never what is accepted.
  return z.string() as z.ZodMiniType<OpenEnum<Known>, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Plain strings
// ---------------------------------------------------------------------------------------------

/** `typeof`, with `null` and arrays told apart. Used in messages. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

/**
 * A check that the string matches `re`. A refinement rather than `z.regex`: the messages are ours either way,
 * and every zod check class left out of the bundle is weight no user carries.
 */
export function matching(re: RegExp, error: string): z.core.$ZodCheck<string> {
  return z.refine<string>((value) => re.test(value), { error });
}

/** A string holding at least one non-whitespace character (kept as given, not trimmed). */
export const nonEmptyStringSchema = z.string().check(
  z.refine((value) => value.trim().length > 0, {
    error: "must be a non-empty string",
  }),
);

/**
 * What is wrong with an identifier used in a request path (merchant, payment or settlement id), or `undefined`: it
 * must be a non-empty string without whitespace or control characters, and not `.` or `..` (which a URL would
 * resolve away).
 */
function idProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return "must be a non-empty string";
  // A lone UTF-16 surrogate cannot be percent-encoded (encodeURIComponent throws a URIError).
  if (/[\s\p{Cc}\p{Cs}]/u.test(value) || value === "." || value === "..") {
    return 'must be an id: no whitespace, control characters or lone surrogates, and not "." or ".."';
  }
  return undefined;
}

/**
 * Checks an identifier that goes into a request path, before anything is sent.
 *
 * @param field The name reported in the error, for example `merchantId`.
 * @param value The value to check.
 * @throws {InputValidationError} When `value` is not a usable identifier.
 */
export function assertId(field: string, value: unknown): asserts value is string {
  const problem = idProblem(value);
  if (problem !== undefined) throw invalidInput(field, problem);
}

/** An absolute `https:` URL (the service silently disables redirects to anything else). */
export const httpsUrlSchema = z
  .string()
  .check(
    z.refine(isHttpsUrl, { error: 'must be an absolute https URL, like "https://shop.example/thanks"' }),
  );

/**
 * A return URL for a checkout against a local mock service: https, or plain http to a loopback host (the mock
 * redirects there; the real service is never on loopback, so a client talking to it never uses this schema).
 */
export const localReturnUrlSchema = z.string().check(
  z.refine((value) => isHttpsUrl(value) || isHttpsUrl(value, true), {
    error: 'must be an absolute https URL (or http to a loopback host), like "https://shop.example/thanks"',
  }),
);

function isHttpsUrl(value: string, allowLoopbackHttp = false): boolean {
  if (value !== value.trim()) return false;
  try {
    const url = new URL(value);
    if (allowLoopbackHttp && url.protocol === "http:") return isLoopback(url.hostname);
    return url.protocol === "https:" && url.hostname.length > 0;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// CAIP identifiers
// ---------------------------------------------------------------------------------------------

// The CAIP specs' parts: namespace [-a-z0-9]{3,8}, chain reference [-_a-zA-Z0-9]{1,32}, account address and asset
// reference [-.%a-zA-Z0-9]{1,128}, token id [-.%a-zA-Z0-9]{1,78}. Written out as literals, which a bundler can drop
// when unused (a RegExp built at load time stays).
/** CAIP-2 `namespace:reference`. */
const CAIP2_RE = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32})$/;
/** CAIP-10 `chain_id:address`. */
export const CAIP10_RE = /^([-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}):([-.%a-zA-Z0-9]{1,128})$/;
/** CAIP-19 `chain_id/asset_namespace:asset_reference[/token_id]`. */
export const CAIP19_RE =
  /^([-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32})\/([-a-z0-9]{3,8}):([-.%a-zA-Z0-9]{1,128})(?:\/([-.%a-zA-Z0-9]{1,78}))?$/;

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

/** Input schema of a CAIP-10 account id, for example `eip155:8453:0x1234...`. */
export const caip10Schema = z
  .string()
  .check(matching(CAIP10_RE, 'must be a CAIP-10 account id, like "eip155:1:0xab12..."'));

/** Input schema of a CAIP-19 asset id, for example `eip155:8453/erc20:0x8335...`. */
export const caip19Schema = z
  .string()
  .check(matching(CAIP19_RE, 'must be a CAIP-19 asset id, like "eip155:1/erc20:0xa0b8..."'));

// ---------------------------------------------------------------------------------------------
// Amounts
// ---------------------------------------------------------------------------------------------

/** A non-negative integer as a decimal string: no sign, fraction, exponent, whitespace or leading zero. */
export const MINOR_UNITS_RE = /^(?:0|[1-9][0-9]*)$/;
/** `iso4217/` followed by a three-letter upper-case currency code. */
export const ISO4217_UNIT_RE = /^iso4217\/[A-Z]{3}$/;

const AMOUNT_VALUE_MESSAGE =
  'must be a non-negative integer in minor units, as a string like "1050" for 10.50 USD';

/** The `value` of an amount: minor units as a decimal string (a number is refused). */
export const minorUnitsSchema = z.string().check(matching(MINOR_UNITS_RE, AMOUNT_VALUE_MESSAGE));

/** Input schema of an amount in a fiat currency (`iso4217/<CODE>`), as payment creation requires. */
export const iso4217AmountInputSchema = z.strictObject({
  /** The currency: `iso4217/` and a three-letter upper-case code, like `iso4217/USD`. */
  unit: z
    .string()
    .check(
      matching(ISO4217_UNIT_RE, 'must be "iso4217/" and an upper-case currency code, like "iso4217/USD"'),
    ),
  /** The amount in minor units as a decimal string, e.g. `"1050"` for 10.50 USD. */
  value: minorUnitsSchema,
});

/** An amount as written in a request: `{ unit, value }`, `value` in minor units as a decimal string. */
export interface AmountInput {
  /** `iso4217/<CODE>` (like `iso4217/USD`) or `caip19/<CAIP-19 asset id>`. */
  unit: string;
  /** The amount in minor units as a decimal string, e.g. `"1050"` for 10.50 USD. */
  value: string;
}
/** A fiat amount as accepted by payment creation: `{ unit: "iso4217/USD", value: "1050" }`. */
export type Iso4217AmountInput = z.input<typeof iso4217AmountInputSchema>;

/** Response schema of an amount. Extra fields are kept; the unit form is not restricted. */
export const amountSchema = z.looseObject({
  /** `iso4217/<CODE>` for a requested amount, `caip19/<CAIP-19 asset id>` for an amount in the paid asset. */
  unit: z.string(),
  /** Integer in minor units as a decimal string (in the paid asset: the token's smallest unit). */
  value: z.string(),
});

/** An amount as returned by the service. */
export type Amount = z.output<typeof amountSchema>;
