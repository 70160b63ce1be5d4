import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputValidationError } from "../../src/errors.js";
import {
  assertId,
  caip10Schema,
  caip19Schema,
  iso4217AmountInputSchema,
  parseCaip2,
  parseCaip10,
  parseCaip19,
  parseInput,
} from "../../src/schemas/index.js";
import { inputError } from "../helpers/assertions.js";
import { USDC_BASE } from "../helpers/fixtures.js";

describe("CAIP parse helpers", () => {
  it("splits a CAIP-2 chain id", () => {
    expect(parseCaip2("eip155:1")).toEqual({ namespace: "eip155", reference: "1" });
    expect(parseCaip2("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp")).toEqual({
      namespace: "solana",
      reference: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
    });
  });

  it.each([
    "",
    "eip155",
    "ei:1",
    "EIP155:1",
    "toolongnamespace:1",
    "eip155:",
    "eip155:1:2",
    "eip155:a.b",
    "eip155:123456789012345678901234567890123",
  ])("rejects the CAIP-2 chain id %j", (value) => {
    expect(parseCaip2(value)).toBeUndefined();
  });

  it("splits a CAIP-10 account id", () => {
    expect(parseCaip10("eip155:8453:0xAbC0000000000000000000000000000000000001")).toEqual({
      chainId: "eip155:8453",
      address: "0xAbC0000000000000000000000000000000000001",
    });
  });

  it.each(["eip155:1", "eip155:1:", "eip155:1:0x/1", `eip155:1:${"a".repeat(129)}`, "eip155:1:0x 1"])(
    "rejects the CAIP-10 account id %j",
    (value) => {
      expect(parseCaip10(value)).toBeUndefined();
    },
  );

  it("splits a CAIP-19 asset id, with and without token id", () => {
    expect(parseCaip19(USDC_BASE)).toEqual({
      chainId: "eip155:8453",
      assetNamespace: "erc20",
      assetReference: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    });
    expect(parseCaip19("eip155:1/erc721:0x06012c8cf97BEaD5deAe237070F9587f8E7A266d/771769")).toEqual({
      chainId: "eip155:1",
      assetNamespace: "erc721",
      assetReference: "0x06012c8cf97BEaD5deAe237070F9587f8E7A266d",
      tokenId: "771769",
    });
  });

  it.each([
    "eip155:1",
    "eip155:1/erc20",
    "eip155:1/ER20:0xabc",
    "eip155:1/er:0xabc",
    "eip155:1/erc20:",
    "eip155:1/erc20:0xabc/",
    `eip155:1/erc721:0xabc/${"1".repeat(79)}`,
    "eip155:1:0xabc",
  ])("rejects the CAIP-19 asset id %j", (value) => {
    expect(parseCaip19(value)).toBeUndefined();
  });

  const namespace = fc.stringMatching(/^[-a-z0-9]{3,8}$/);
  const chainRef = fc.stringMatching(/^[-_a-zA-Z0-9]{1,32}$/);
  const address = fc.stringMatching(/^[-.%a-zA-Z0-9]{1,128}$/);
  const tokenId = fc.stringMatching(/^[-.%a-zA-Z0-9]{1,78}$/);

  it("accepts every CAIP-2/10/19 id built from the grammar (property)", () => {
    fc.assert(
      fc.property(
        namespace,
        chainRef,
        address,
        namespace,
        address,
        fc.option(tokenId, { nil: undefined }),
        (ns, ref, account, assetNs, assetRef, token) => {
          const chainId = `${ns}:${ref}`;
          expect(parseCaip2(chainId)).toEqual({ namespace: ns, reference: ref });
          expect(parseCaip10(`${chainId}:${account}`)).toEqual({ chainId, address: account });
          const asset = `${chainId}/${assetNs}:${assetRef}${token === undefined ? "" : `/${token}`}`;
          const parts = parseCaip19(asset);
          expect(parts?.chainId).toBe(chainId);
          expect(parts?.assetNamespace).toBe(assetNs);
          expect(parts?.assetReference).toBe(assetRef);
          expect(parts?.tokenId).toBe(token);
          expect(parseInput(caip10Schema, `${chainId}:${account}`)).toBe(`${chainId}:${account}`);
          expect(parseInput(caip19Schema, asset)).toBe(asset);
        },
      ),
    );
  });

  it("rejects random junk with InputValidationError only (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.anything()), (junk) => {
        for (const schema of [caip10Schema, caip19Schema]) {
          try {
            parseInput(schema, junk);
          } catch (error) {
            expect(error).toBeInstanceOf(InputValidationError);
          }
        }
      }),
    );
  });
});

describe("amount input", () => {
  it("accepts an iso4217 unit with minor units as a string", () => {
    expect(parseInput(iso4217AmountInputSchema, { unit: "iso4217/USD", value: "1050" })).toEqual({
      unit: "iso4217/USD",
      value: "1050",
    });
    expect(parseInput(iso4217AmountInputSchema, { unit: "iso4217/JPY", value: "1" }).value).toBe("1");
  });

  it("rejects a zero amount and one of more than 30 digits, as the mock does (one rule)", () => {
    const zero = inputError(() => parseInput(iso4217AmountInputSchema, { unit: "iso4217/JPY", value: "0" }));
    expect(zero.issues[0]?.message).toBe(
      "value must be greater than zero (a payment of nothing cannot be paid)",
    );
    const long = "1".repeat(31);
    expect(
      inputError(() => parseInput(iso4217AmountInputSchema, { unit: "iso4217/USD", value: long })).field,
    ).toBe("value");
  });

  it.each(["-1", "+1", "1.5", "1e3", "01", "00", " 1", "1 ", "", "0x10", "1_000", "١٢"])(
    "rejects the value %j on amount.value",
    (value) => {
      const error = inputError(() =>
        parseInput(iso4217AmountInputSchema, { unit: "iso4217/USD", value }, "amount"),
      );
      expect(error.field).toBe("amount.value");
      expect(error.issues[0]?.message).toMatch(
        /^amount\.value must be a non-negative integer in minor units/,
      );
    },
  );

  it("rejects a number value, with a message that says so", () => {
    const error = inputError(() =>
      parseInput(iso4217AmountInputSchema, { unit: "iso4217/USD", value: 1050 }),
    );
    expect(error.field).toBe("value");
    expect(error.message).toContain("got a number");
  });

  it.each([
    "USD",
    "iso4217/usd",
    "iso4217/US",
    "iso4217/USDT",
    "caip19/eip155:1",
    "caip19/",
    "fiat/USD",
    " iso4217/USD",
  ])("rejects the unit %j on unit", (unit) => {
    expect(inputError(() => parseInput(iso4217AmountInputSchema, { unit, value: "1" })).field).toBe("unit");
  });

  it("iso4217 amounts refuse caip19 units", () => {
    const error = inputError(() =>
      parseInput(iso4217AmountInputSchema, { unit: `caip19/${USDC_BASE}`, value: "1" }),
    );
    expect(error.field).toBe("unit");
  });

  it("refuses unknown fields and reports a missing field as required", () => {
    const extra = inputError(() =>
      parseInput(iso4217AmountInputSchema, { unit: "iso4217/USD", value: "1", cur: 1 }),
    );
    expect(extra.field).toBe("cur");
    expect(extra.issues[0]?.message).toBe("cur is not a known field");
    const missing = inputError(() => parseInput(iso4217AmountInputSchema, { unit: "iso4217/USD" }));
    expect(missing.issues).toEqual([{ field: "value", message: "value is required" }]);
  });

  it("accepts every canonical positive integer string of up to 30 digits (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 30n - 1n }), (n) => {
        const value = n.toString();
        expect(parseInput(iso4217AmountInputSchema, { unit: "iso4217/EUR", value }).value).toBe(value);
      }),
    );
  });

  it("never throws anything but InputValidationError on junk (property)", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (unit, value) => {
        try {
          parseInput(iso4217AmountInputSchema, { unit, value });
        } catch (error) {
          expect(error).toBeInstanceOf(InputValidationError);
        }
      }),
    );
  });
});

describe("assertId", () => {
  it("accepts a plain id", () => {
    expect(() => assertId("merchantId", "mrch_123")).not.toThrow();
  });

  it.each([["" as unknown], [" "], ["a b"], ["."], [".."], ["a\n"], [undefined], [42], [null]])(
    "rejects %j and names the field",
    (value) => {
      const error = inputError(() => assertId("paymentId", value));
      expect(error.field).toBe("paymentId");
      expect(error.message).toContain("paymentId");
    },
  );
});
