import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputValidationError } from "../src/errors.js";
import {
  CURRENCY_DIGITS,
  currencyDigits,
  fromMinorUnits,
  ISO4217_CURRENCY_CODES,
  money,
  toMinorUnits,
} from "../src/money.js";
import { iso4217AmountInputSchema } from "../src/schemas/common.js";
import { parseInput } from "../src/schemas/input.js";
import { inputError } from "./helpers/assertions.js";

describe("toMinorUnits", () => {
  it.each([
    ["10.50", "USD", "1050"],
    ["10.5", "USD", "1050"],
    ["10", "USD", "1000"],
    ["0.01", "EUR", "1"],
    ["0", "USD", "0"],
    ["0.00", "USD", "0"],
    ["1000", "JPY", "1000"],
    ["1.234", "KWD", "1234"],
    ["1.2345", "CLF", "12345"],
    ["007.10", "USD", "710"],
    ["10.500", "USD", "1050"],
    ["1000.00", "JPY", "1000"],
    ["12345678901234567890.99", "USD", "1234567890123456789099"],
  ])("(%j, %s) gives %j", (major, currency, minor) => {
    expect(toMinorUnits(major, currency)).toBe(minor);
  });

  it("takes whole units as bigint", () => {
    expect(toMinorUnits(12n, "USD")).toBe("1200");
    expect(toMinorUnits(12n, "JPY")).toBe("12");
    expect(toMinorUnits(12n, "BHD")).toBe("12000");
  });

  it.each([
    ["1.5", "JPY"],
    ["10.505", "USD"],
    ["1.23456", "CLF"],
    ["0.001", "EUR"],
  ])("refuses to round (%j %s) and says so on major", (major, currency) => {
    const error = inputError(() => toMinorUnits(major, currency));
    expect(error.field).toBe("major");
    expect(error.message).toContain(currency);
  });

  it.each([
    "-1",
    "+1",
    "1e3",
    "1E3",
    "",
    " 1",
    "1 ",
    ".5",
    "5.",
    "1,50",
    "0x10",
    "NaN",
    "Infinity",
    "1.2.3",
    "١",
  ])("refuses %j on major", (major) => {
    expect(inputError(() => toMinorUnits(major, "USD")).field).toBe("major");
  });

  it("refuses numbers and negative bigints", () => {
    expect(inputError(() => toMinorUnits(10.5 as unknown as string, "USD")).field).toBe("major");
    expect(inputError(() => toMinorUnits(-1n, "USD")).field).toBe("major");
    // @ts-expect-error numbers are not accepted, even at compile time
    expect(() => toMinorUnits(10, "USD")).toThrow(InputValidationError);
  });

  it.each(["US", "USDT", "", "U$D", "12A", undefined])("refuses the currency %j", (currency) => {
    expect(inputError(() => toMinorUnits("1", currency as string)).field).toBe("currency");
  });

  it("takes a digits override", () => {
    expect(toMinorUnits("1.5", "JPY", { digits: 1 })).toBe("15");
    expect(toMinorUnits("1", "USD", { digits: 6 })).toBe("1000000");
    expect(inputError(() => toMinorUnits("1", "USD", { digits: -1 })).field).toBe("digits");
    expect(inputError(() => toMinorUnits("1", "USD", { digits: 1.5 })).field).toBe("digits");
  });
});

describe("fromMinorUnits", () => {
  it.each([
    ["1050", "USD", "10.50"],
    ["5", "USD", "0.05"],
    ["0", "USD", "0.00"],
    ["1000", "JPY", "1000"],
    ["1234", "KWD", "1.234"],
    ["1", "CLF", "0.0001"],
  ])("(%j, %s) gives %j", (minor, currency, major) => {
    expect(fromMinorUnits(minor, currency)).toBe(major);
  });

  it("takes bigint", () => {
    expect(fromMinorUnits(1050n, "USD")).toBe("10.50");
  });

  it.each(["-1", "01", "1.5", "", "1e2", " 1"])("refuses %j on minor", (minor) => {
    expect(inputError(() => fromMinorUnits(minor, "USD")).field).toBe("minor");
  });
});

describe("money", () => {
  it("builds an iso4217 amount", () => {
    expect(money("10.50", "USD")).toEqual({ unit: "iso4217/USD", value: "1050" });
    expect(money("500", "JPY")).toEqual({ unit: "iso4217/JPY", value: "500" });
  });

  it("produces amounts that payment creation accepts", () => {
    expect(parseInput(iso4217AmountInputSchema, money("0.99", "EUR"))).toEqual({
      unit: "iso4217/EUR",
      value: "99",
    });
  });
});

describe("fiat amounts take active ISO 4217 currency codes only", () => {
  const refused: [string, RegExp][] = [
    ["BTC", /crypto.*paid asset/i],
    ["ETH", /crypto.*paid asset/i],
    ["XAU", /not a currency.*precious metal/i],
    ["XAG", /not a currency/i],
    ["XPT", /not a currency/i],
    ["XPD", /not a currency/i],
    ["XDR", /not a currency/i],
    ["XTS", /not a currency/i],
    ["XXX", /not a currency/i],
    ["XBA", /not a currency/i],
    ["ABC", /not an active ISO 4217/i],
    ["usd", /upper-case.*"USD"/i],
    ["Jpy", /upper-case.*"JPY"/i],
  ];

  it.each(refused)("refuses %s with a typed error and a hint, in every money helper", (code, hint) => {
    for (const call of [
      () => money("1", code),
      () => toMinorUnits("1", code),
      () => toMinorUnits("1", code, { digits: 8 }),
      () => fromMinorUnits("1", code),
      () => currencyDigits(code),
    ]) {
      const error = inputError(call);
      expect(error.field).toBe("currency");
      expect(error.message).toMatch(hint);
    }
  });

  it.each(refused)("payment creation refuses iso4217/%s before anything is sent", (code) => {
    const amount = { unit: `iso4217/${code}`, value: "100" };
    expect(() => parseInput(iso4217AmountInputSchema, amount)).toThrow(InputValidationError);
  });

  it("takes each active code with its real minor units", () => {
    const expected: Record<string, number> = {
      USD: 2,
      EUR: 2,
      JPY: 0,
      KRW: 0,
      ISK: 0,
      XOF: 0,
      XAF: 0,
      UYI: 0,
    };
    Object.assign(expected, {
      KWD: 3,
      BHD: 3,
      TND: 3,
      CLF: 4,
      UYW: 4,
      XCG: 2,
      CHE: 2,
      ZWG: 2,
      VED: 2,
      SLE: 2,
    });
    for (const [code, digits] of Object.entries(expected)) {
      expect(currencyDigits(code), code).toBe(digits);
      expect(money("1", code).value, code).toBe(`1${"0".repeat(digits)}`);
    }
    expect(ISO4217_CURRENCY_CODES.size).toBeGreaterThan(150);
    for (const code of Object.keys(CURRENCY_DIGITS))
      expect(ISO4217_CURRENCY_CODES.has(code), code).toBe(true);
  });
});

describe("currency digits", () => {
  it("knows the ISO 4217 exceptions and defaults to 2", () => {
    expect(currencyDigits("JPY")).toBe(0);
    expect(currencyDigits("KWD")).toBe(3);
    expect(currencyDigits("UYW")).toBe(4);
    expect(currencyDigits("USD")).toBe(2);
    expect(currencyDigits("EUR")).toBe(2);
    expect(Object.keys(CURRENCY_DIGITS)).toHaveLength(26);
  });
});

describe("properties", () => {
  const currency = fc.oneof(
    fc.constantFrom(...Object.keys(CURRENCY_DIGITS)),
    fc.constantFrom(...ISO4217_CURRENCY_CODES),
  );

  it("minor -> major -> minor round-trips for every currency", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), currency, (n, code) => {
        const minor = n.toString();
        const major = fromMinorUnits(minor, code);
        expect(toMinorUnits(major, code)).toBe(minor);
        expect(fromMinorUnits(n, code)).toBe(major);
      }),
    );
  });

  it("major strings with at most the currency's digits are exact", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), currency, fc.nat(4), (whole, code, extra) => {
        const digits = currencyDigits(code);
        const fraction = "7".repeat(Math.min(extra, digits));
        const major = fraction ? `${whole}.${fraction}` : whole.toString();
        const expected = BigInt(`${whole}${fraction.padEnd(digits, "0")}`);
        expect(BigInt(toMinorUnits(major, code))).toBe(expected);
      }),
    );
  });

  it("junk never throws anything but InputValidationError", () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true }), fc.anything(), (major, code) => {
        for (const fn of [
          () => toMinorUnits(major as string, code as string),
          () => fromMinorUnits(major as string, code as string),
          () => money(major as string, code as string),
        ]) {
          try {
            fn();
          } catch (error) {
            expect(error).toBeInstanceOf(InputValidationError);
          }
        }
      }),
    );
  });
});
