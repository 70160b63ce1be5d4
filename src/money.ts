/**
 * Money helpers: convert between major units (`"10.50"`) and the minor units the service expects
 * (`"1050"`), using each currency's own number of fraction digits (ISO 4217 exponent). Strings and
 * bigints only: no floating point anywhere, and nothing is ever rounded.
 *
 * @module
 */
import {
  CURRENCY_DIGITS,
  currencyProblem,
  fiatDigits,
  ISO4217_CURRENCY_CODES,
} from "./validate/currencies.js";
import { invalidInput } from "./validate/issues.js";
import { MINOR_UNITS_RE } from "./validate/rules.js";

export { CURRENCY_DIGITS, ISO4217_CURRENCY_CODES };

/** Options of the money helpers. */
export interface MoneyOptions {
  /** Number of fraction digits to use instead of the currency's ISO 4217 exponent (integer 0 to 36). */
  digits?: number;
}

/** A fiat amount ready for payment creation: `{ unit: "iso4217/USD", value: "1050" }`. */
export interface FiatAmount {
  /** `iso4217/` and the upper-case currency code. */
  unit: `iso4217/${string}`;
  /** Minor units as a decimal string. */
  value: string;
}

const MAX_DIGITS = 36;
const MAJOR_RE = /^([0-9]+)(?:\.([0-9]+))?$/;

function fail(field: string, message: string): never {
  throw invalidInput(field, message);
}

/**
 * Checks a currency code: an active ISO 4217 currency, upper-case ({@link ISO4217_CURRENCY_CODES}). BTC, XAU, a
 * lower-case or an unknown code is refused with a hint: guessing two decimals for them would be a silent error.
 */
function checkedCurrency(currency: unknown): string {
  const problem = currencyProblem(currency);
  if (problem !== undefined) fail("currency", problem);
  return currency as string;
}

function resolveDigits(code: string, options: MoneyOptions | undefined): number {
  const override = options?.digits;
  if (override === undefined) return fiatDigits(code);
  if (!Number.isInteger(override) || override < 0 || override > MAX_DIGITS) {
    fail("digits", `must be an integer from 0 to ${MAX_DIGITS}`);
  }
  return override;
}

/**
 * The number of fraction digits of a currency (its ISO 4217 minor unit): 0 for JPY, 2 for USD, 3 for
 * KWD, 4 for CLF.
 *
 * @throws {InputValidationError} When `currency` is not an active ISO 4217 currency code in upper case (field
 *   `currency`): BTC, XAU, `usd` or an unknown code.
 */
export function currencyDigits(currency: string): number {
  return resolveDigits(checkedCurrency(currency), undefined);
}

/**
 * Converts an amount in major units to minor units: `("10.50", "USD")` gives `"1050"`,
 * `("1000", "JPY")` gives `"1000"`, `("1.234", "KWD")` gives `"1234"`. Trailing zeros beyond the
 * currency's digits are accepted (`"10.500"` USD); any other extra digit is an error, never rounded.
 *
 * @param major A non-negative decimal string (`"10"`, `"10.5"`, `"10.50"`) or a non-negative bigint
 *   of whole units. Signs, exponents, whitespace and numbers are refused.
 * @param currency An active ISO 4217 currency code, upper-case (`"USD"`); crypto tickers, metals and unknown codes
 *   are refused.
 * @throws {InputValidationError} On a malformed amount (field `major`), a currency that is not an active ISO 4217
 *   one (field `currency`) or too many fraction digits (field `major`).
 */
export function toMinorUnits(major: string | bigint, currency: string, options?: MoneyOptions): string {
  const code = checkedCurrency(currency);
  const digits = resolveDigits(code, options);
  if (typeof major === "bigint") {
    if (major < 0n) fail("major", "must not be negative");
    return (major * 10n ** BigInt(digits)).toString();
  }
  if (typeof major !== "string") {
    fail(
      "major",
      'must be a decimal string like "10.50" or a bigint (numbers are refused to avoid rounding)',
    );
  }
  const match = MAJOR_RE.exec(major);
  if (!match) {
    fail(
      "major",
      `must be a non-negative decimal number as a string, like "10.50" (got ${JSON.stringify(major)})`,
    );
  }
  const whole = match[1]!;
  const fraction = match[2] ?? "";
  const kept = fraction.slice(0, digits);
  if (/[^0]/.test(fraction.slice(digits))) {
    fail(
      "major",
      `has ${fraction.length} fraction digits but ${code} has ${digits}; round it yourself before converting`,
    );
  }
  const minor = `${whole}${kept.padEnd(digits, "0")}`.replace(/^0+(?=[0-9])/, "");
  return minor;
}

/**
 * Converts minor units back to a major-unit string for display: `("1050", "USD")` gives `"10.50"`,
 * `("1000", "JPY")` gives `"1000"`.
 *
 * @param minor Minor units: a non-negative integer decimal string without leading zeros, or a
 *   non-negative bigint.
 * @param currency An active ISO 4217 currency code, upper-case (`"USD"`).
 * @throws {InputValidationError} On malformed minor units (field `minor`) or currency (field `currency`).
 */
export function fromMinorUnits(minor: string | bigint, currency: string, options?: MoneyOptions): string {
  const code = checkedCurrency(currency);
  const digits = resolveDigits(code, options);
  let text: string;
  if (typeof minor === "bigint") {
    if (minor < 0n) fail("minor", "must not be negative");
    text = minor.toString();
  } else if (typeof minor === "string" && MINOR_UNITS_RE.test(minor)) {
    text = minor;
  } else {
    fail(
      "minor",
      'must be a non-negative integer in minor units as a decimal string, like "1050", or a bigint',
    );
  }
  if (digits === 0) return text;
  const padded = text.padStart(digits + 1, "0");
  return `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/**
 * Builds the amount of a payment from major units: `money("10.50", "USD")` gives
 * `{ unit: "iso4217/USD", value: "1050" }`.
 *
 * @throws {InputValidationError} As {@link toMinorUnits} does.
 */
export function money(major: string | bigint, currency: string, options?: MoneyOptions): FiatAmount {
  const value = toMinorUnits(major, currency, options);
  return { unit: `iso4217/${checkedCurrency(currency)}`, value };
}
