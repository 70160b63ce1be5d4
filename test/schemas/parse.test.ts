import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputValidationError } from "../../src/errors.js";
import {
  createCryptoSettlementsInputSchema,
  createMerchantInputSchema,
  createPaymentInputSchema,
  fetchActionInputSchema,
  parseInput,
  paymentStatusResultSchema,
  readResponse,
  toCreateCheckoutBody,
  updateCryptoSettlementInputSchema,
} from "../../src/schemas/index.js";

describe("parseInput", () => {
  it("returns the parsed value", () => {
    expect(parseInput(createMerchantInputSchema, { name: "A", email: "a@shop.example" })).toEqual({
      name: "A",
      email: "a@shop.example",
    });
  });

  it("reports every offending field with its dotted path, message led by the field", () => {
    try {
      parseInput(createPaymentInputSchema, {
        referenceId: "",
        amount: { unit: "iso4217/usd", value: "1.0" },
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputValidationError);
      const { issues, field } = error as InputValidationError;
      expect(field).toBe("referenceId");
      expect(issues.map((issue) => issue.field)).toEqual(["referenceId", "amount.unit", "amount.value"]);
      for (const issue of issues) expect(issue.message.startsWith(`${issue.field} `)).toBe(true);
      expect(issues[2]?.message).toBe(
        'amount.value must be a non-negative integer in minor units, as a string like "1050" for 10.50 USD',
      );
    }
  });

  it("puts the root name in front of paths", () => {
    expect(() => parseInput(createCryptoSettlementsInputSchema, [{}], "settlements")).toThrow(
      expect.objectContaining({ field: "settlements.0.asset" }),
    );
  });

  it("throws only InputValidationError on any junk, for every input schema (property)", () => {
    const validators = [
      createMerchantInputSchema,
      createPaymentInputSchema,
      createCryptoSettlementsInputSchema,
      updateCryptoSettlementInputSchema,
      fetchActionInputSchema,
    ].map((schema) => (junk: unknown) => parseInput(schema, junk));
    validators.push((junk) => toCreateCheckoutBody(junk as never));
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true }), (junk) => {
        for (const validate of validators) {
          try {
            validate(junk);
          } catch (error) {
            expect(error).toBeInstanceOf(InputValidationError);
            const { issues } = error as InputValidationError;
            expect(issues.length).toBeGreaterThan(0);
            for (const issue of issues) expect(issue.message).not.toContain("Invalid input");
          }
        }
      }),
    );
  });
});

describe("response issues", () => {
  it("readResponse words issues with dotted paths", () => {
    const result = readResponse(paymentStatusResultSchema, { status: "processing", isFinal: "no" }, "strict");
    expect(result).toMatchObject({
      success: false,
      issues: [{ path: "isFinal", message: "must be a boolean, got a string" }],
    });
  });

  it("reports a body that is not an object at the empty path", () => {
    const result = readResponse(paymentStatusResultSchema, "<html>", "strict");
    expect(result).toMatchObject({
      success: false,
      issues: [{ path: "", message: "must be an object, got a string" }],
    });
  });
});
