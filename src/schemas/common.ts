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
import { isLoopback } from "../core/loopback.js";
import { InputValidationError } from "../errors.js";

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
  return z.custom<OpenEnum<Known>>((value) => typeof value === "string", {
    error: (issue) => (issue.input === undefined ? "is required" : "must be a string"),
  });
}

// ---------------------------------------------------------------------------------------------
// Plain strings
// ---------------------------------------------------------------------------------------------

/** Message for a string that is missing or of the wrong type (schema-level, so it wins over defaults). */
function stringTypeError(what: string) {
  return (issue: { code?: string; input?: unknown }): string | undefined => {
    if (issue.code !== "invalid_type") return undefined;
    return issue.input === undefined ? "is required" : `must be ${what}, got ${describeType(issue.input)}`;
  };
}

/** `typeof`, with `null` and arrays told apart. Used in messages. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

/** A string holding at least one non-whitespace character (kept as given, not trimmed). */
export const nonEmptyStringSchema = z.string({ error: stringTypeError("a string") }).check(
  z.refine((value) => value.trim().length > 0, {
    error: "must be a non-empty string",
  }),
);

/**
 * An identifier used in a request path (merchant, payment or settlement id): a non-empty string
 * without whitespace or control characters, and not `.` or `..` (which a URL would resolve away).
 */
export const idSchema = z.string({ error: stringTypeError("a non-empty string") }).check(
  z.refine((value) => value.length > 0, { error: "must be a non-empty string" }),
  z.refine((value) => !/[\s\p{Cc}]/u.test(value), {
    error: "must not contain whitespace or control characters",
  }),
  z.refine((value) => value !== "." && value !== "..", { error: 'must not be "." or ".."' }),
  // A lone UTF-16 surrogate cannot be percent-encoded (encodeURIComponent throws a URIError).
  z.refine((value) => !/\p{Cs}/u.test(value), { error: "must be well-formed text (no lone surrogates)" }),
);

/**
 * Checks an identifier that goes into a request path, before anything is sent.
 *
 * @param field The name reported in the error, for example `merchantId`.
 * @param value The value to check.
 * @throws {InputValidationError} When `value` is not a usable identifier.
 */
export function assertId(field: string, value: unknown): asserts value is string {
  const result = idSchema.safeParse(value);
  if (!result.success) {
    const message = result.error.issues[0]?.message ?? "must be a non-empty string";
    throw new InputValidationError([{ field, message: `${field} ${message}` }]);
  }
}

/** An absolute `https:` URL (the service silently disables redirects to anything else). */
export const httpsUrlSchema = z
  .string({ error: stringTypeError("an https URL") })
  .check(
    z.refine(isHttpsUrl, { error: 'must be an absolute https URL, like "https://shop.example/thanks"' }),
  );

/**
 * A return URL for a checkout against a local mock service: https, or plain http to a loopback host (the mock
 * redirects there; the real service is never on loopback, so a client talking to it never uses this schema).
 */
export const localReturnUrlSchema = z.string({ error: stringTypeError("an https URL") }).check(
  z.refine((value) => isHttpsUrl(value) || isHttpsUrl(value, true), {
    error:
      'must be an absolute https URL (or http to a loopback host, against a local mock), like "https://shop.example/thanks"',
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

const NAMESPACE = "[-a-z0-9]{3,8}";
const CHAIN_REFERENCE = "[-_a-zA-Z0-9]{1,32}";
const ACCOUNT_ADDRESS = "[-.%a-zA-Z0-9]{1,128}";
const ASSET_REFERENCE = "[-.%a-zA-Z0-9]{1,128}";
const TOKEN_ID = "[-.%a-zA-Z0-9]{1,78}";

const CAIP2_RE = new RegExp(`^(${NAMESPACE}):(${CHAIN_REFERENCE})$`);
const CAIP10_RE = new RegExp(`^(${NAMESPACE}:${CHAIN_REFERENCE}):(${ACCOUNT_ADDRESS})$`);
const CAIP19_RE = new RegExp(
  `^(${NAMESPACE}:${CHAIN_REFERENCE})/(${NAMESPACE}):(${ASSET_REFERENCE})(?:/(${TOKEN_ID}))?$`,
);

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

/** Input schema of a CAIP-2 chain id, for example `eip155:8453`. */
export const caip2Schema = z.string({ error: stringTypeError("a CAIP-2 chain id") }).check(
  z.regex(CAIP2_RE, {
    error: 'must be a CAIP-2 chain id "<namespace>:<reference>", like "eip155:1"',
  }),
);

/** Input schema of a CAIP-10 account id, for example `eip155:8453:0x1234...`. */
export const caip10Schema = z.string({ error: stringTypeError("a CAIP-10 account id") }).check(
  z.regex(CAIP10_RE, {
    error: 'must be a CAIP-10 account id "<namespace>:<reference>:<address>", like "eip155:1:0xab12..."',
  }),
);

/** Input schema of a CAIP-19 asset id, for example `eip155:8453/erc20:0x8335...`. */
export const caip19Schema = z.string({ error: stringTypeError("a CAIP-19 asset id") }).check(
  z.regex(CAIP19_RE, {
    error:
      'must be a CAIP-19 asset id "<namespace>:<reference>/<asset_namespace>:<asset_reference>", like "eip155:1/erc20:0xa0b8..."',
  }),
);

// ---------------------------------------------------------------------------------------------
// Amounts
// ---------------------------------------------------------------------------------------------

/** A non-negative integer as a decimal string: no sign, fraction, exponent, whitespace or leading zero. */
export const MINOR_UNITS_RE = /^(?:0|[1-9][0-9]*)$/;
/** `iso4217/` followed by a three-letter upper-case currency code. */
export const ISO4217_UNIT_RE = /^iso4217\/[A-Z]{3}$/;

const AMOUNT_VALUE_MESSAGE =
  'must be a non-negative integer in minor units as a decimal string, like "1050" for 10.50 USD';

/** The `value` of an amount: minor units as a decimal string (a number is refused). */
export const minorUnitsSchema = z
  .string({ error: stringTypeError('a decimal string like "1050"') })
  .check(z.regex(MINOR_UNITS_RE, { error: AMOUNT_VALUE_MESSAGE }));

/** True when `unit` is `iso4217/<CODE>` or `caip19/<CAIP-19 asset id>`. */
export function isAmountUnit(unit: string): boolean {
  if (ISO4217_UNIT_RE.test(unit)) return true;
  return unit.startsWith("caip19/") && CAIP19_RE.test(unit.slice("caip19/".length));
}

/** Input schema of an amount in any unit: `iso4217/<CODE>` or `caip19/<asset id>`. */
export const amountInputSchema = z.strictObject({
  /** The unit: `iso4217/<CODE>` (like `iso4217/USD`) or `caip19/<CAIP-19 asset id>`. */
  unit: z.string({ error: stringTypeError("a string") }).check(
    z.refine(isAmountUnit, {
      error: 'must be "iso4217/<CODE>" (like "iso4217/USD") or "caip19/<CAIP-19 asset id>"',
    }),
  ),
  /** The amount in minor units as a decimal string, e.g. `"1050"` for 10.50 USD. */
  value: minorUnitsSchema,
});

/** Input schema of an amount in a fiat currency (`iso4217/<CODE>`), as payment creation requires. */
export const iso4217AmountInputSchema = z.strictObject({
  /** The currency: `iso4217/` and a three-letter upper-case code, like `iso4217/USD`. */
  unit: z.string({ error: stringTypeError("a string") }).check(
    z.regex(ISO4217_UNIT_RE, {
      error: 'must be "iso4217/" and a three-letter upper-case currency code, like "iso4217/USD"',
    }),
  ),
  /** The amount in minor units as a decimal string, e.g. `"1050"` for 10.50 USD. */
  value: minorUnitsSchema,
});

/** An amount as accepted in a request: `{ unit, value }` with `value` in minor units as a string. */
export type AmountInput = z.input<typeof amountInputSchema>;
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
