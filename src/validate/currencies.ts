/**
 * The currencies of fiat amounts: the active ISO 4217 codes and their minor units, one table shared by the SDK's
 * money helpers, its input checks and the mock.
 *
 * Why a table and not the runtime: `Intl.supportedValuesOf("currency")` lists what the runtime's ICU knows (historic
 * codes too, and a different list on each runtime and ICU version), and `Intl.NumberFormat`'s
 * `maximumFractionDigits` is a display convention (0 for ISK and IQD's 0 in some ICU versions, where ISO 4217 says 0
 * and 3), not the minor unit. One rule must answer alike on Node, Bun, Deno, workerd and a browser, so it is written
 * here.
 *
 * @module
 */

/**
 * The active ISO 4217 currency codes that name a currency or a fund (ISO 4217 List One, 2024-06 edition, with XCG
 * added in 2025; ANG and BGN stay while they are withdrawn). Not included: precious metals (XAU, XAG, XPT, XPD),
 * units of account and bond units (XDR, XSU, XUA, XBA to XBD), the test code XTS and XXX ("no currency"). Marked pure,
 * so that a bundle of the client alone (which never converts money) leaves the table out.
 */
export const ISO4217_CURRENCY_CODES: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "AED",
  "AFN",
  "ALL",
  "AMD",
  "ANG",
  "AOA",
  "ARS",
  "AUD",
  "AWG",
  "AZN",
  "BAM",
  "BBD",
  "BDT",
  "BGN",
  "BHD",
  "BIF",
  "BMD",
  "BND",
  "BOB",
  "BOV",
  "BRL",
  "BSD",
  "BTN",
  "BWP",
  "BYN",
  "BZD",
  "CAD",
  "CDF",
  "CHE",
  "CHF",
  "CHW",
  "CLF",
  "CLP",
  "CNY",
  "COP",
  "COU",
  "CRC",
  "CUC",
  "CUP",
  "CVE",
  "CZK",
  "DJF",
  "DKK",
  "DOP",
  "DZD",
  "EGP",
  "ERN",
  "ETB",
  "EUR",
  "FJD",
  "FKP",
  "GBP",
  "GEL",
  "GHS",
  "GIP",
  "GMD",
  "GNF",
  "GTQ",
  "GYD",
  "HKD",
  "HNL",
  "HTG",
  "HUF",
  "IDR",
  "ILS",
  "INR",
  "IQD",
  "IRR",
  "ISK",
  "JMD",
  "JOD",
  "JPY",
  "KES",
  "KGS",
  "KHR",
  "KMF",
  "KPW",
  "KRW",
  "KWD",
  "KYD",
  "KZT",
  "LAK",
  "LBP",
  "LKR",
  "LRD",
  "LSL",
  "LYD",
  "MAD",
  "MDL",
  "MGA",
  "MKD",
  "MMK",
  "MNT",
  "MOP",
  "MRU",
  "MUR",
  "MVR",
  "MWK",
  "MXN",
  "MXV",
  "MYR",
  "MZN",
  "NAD",
  "NGN",
  "NIO",
  "NOK",
  "NPR",
  "NZD",
  "OMR",
  "PAB",
  "PEN",
  "PGK",
  "PHP",
  "PKR",
  "PLN",
  "PYG",
  "QAR",
  "RON",
  "RSD",
  "RUB",
  "RWF",
  "SAR",
  "SBD",
  "SCR",
  "SDG",
  "SEK",
  "SGD",
  "SHP",
  "SLE",
  "SOS",
  "SRD",
  "SSP",
  "STN",
  "SVC",
  "SYP",
  "SZL",
  "THB",
  "TJS",
  "TMT",
  "TND",
  "TOP",
  "TRY",
  "TTD",
  "TWD",
  "TZS",
  "UAH",
  "UGX",
  "USD",
  "USN",
  "UYI",
  "UYU",
  "UYW",
  "UZS",
  "VED",
  "VES",
  "VND",
  "VUV",
  "WST",
  "XAF",
  "XCD",
  "XCG",
  "XOF",
  "XPF",
  "YER",
  "ZAR",
  "ZMW",
  "ZWG",
]);

/**
 * ISO 4217 currencies whose minor unit is not 1/100 (exponent other than 2); every other code of
 * {@link ISO4217_CURRENCY_CODES} has 2 fraction digits.
 */
export const CURRENCY_DIGITS: Readonly<Record<string, number>> = /* @__PURE__ */ Object.freeze({
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
});

/** ISO 4217 codes that are not currencies: what a merchant who wrote one probably meant. */
const NOT_CURRENCIES = new Set([
  "XAU",
  "XAG",
  "XPT",
  "XPD",
  "XDR",
  "XSU",
  "XUA",
  "XBA",
  "XBB",
  "XBC",
  "XBD",
  "XTS",
  "XXX",
]);

/** Common crypto asset tickers, for a hint (any other unknown code is refused too). */
const CRYPTO_TICKERS = new Set([
  "BTC",
  "XBT",
  "ETH",
  "USDT",
  "USDC",
  "SOL",
  "LTC",
  "TRX",
  "DAI",
  "BNB",
  "XRP",
  "DOGE",
]);

const CRYPTO_HINT =
  "crypto amounts are given in the paid asset (a caip19/ unit, in the asset's smallest units), not as an ISO 4217 currency";

/**
 * Why `code` is not the code of a fiat amount, or `undefined` when it is one of {@link ISO4217_CURRENCY_CODES} (exactly,
 * upper-case). The message starts after the field's name (`currency must be ...`) and says what to write instead.
 */
export function currencyProblem(code: unknown): string | undefined {
  if (typeof code === "string" && ISO4217_CURRENCY_CODES.has(code)) return undefined;
  if (typeof code !== "string" || !/^[A-Za-z]{3,5}$/.test(code)) {
    return 'must be a three-letter ISO 4217 currency code, like "USD"';
  }
  const upper = code.toUpperCase();
  if (CRYPTO_TICKERS.has(upper)) return `must be an ISO 4217 currency, not ${upper}: ${CRYPTO_HINT}`;
  if (code.length !== 3) return 'must be a three-letter ISO 4217 currency code, like "USD"';
  if (ISO4217_CURRENCY_CODES.has(upper)) return `must be the upper-case ISO 4217 code: write "${upper}"`;
  if (NOT_CURRENCIES.has(upper)) {
    return `must be a currency: ${upper} is an ISO 4217 code but not a currency (a precious metal, a unit of account or a test code); ${CRYPTO_HINT}`;
  }
  return `must be an active ISO 4217 currency code, like "USD": ${upper} is not an active ISO 4217 currency`;
}

/** The minor units (fraction digits) of a code of {@link ISO4217_CURRENCY_CODES}. */
export function fiatDigits(code: string): number {
  return CURRENCY_DIGITS[code] ?? 2;
}
