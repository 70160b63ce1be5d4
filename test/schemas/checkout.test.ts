import { describe, expect, it } from "vitest";
import {
  type CreateCheckoutInput,
  createCheckoutResponseSchema,
  readResponse,
  toCreateCheckoutBody,
  unknownField,
} from "../../src/schemas/index.js";
import { inputError } from "../helpers/assertions.js";

const base = { referenceId: "order-1", amount: { unit: "iso4217/EUR", value: "999" } };
const urls = { successUrl: "https://shop.example/ok?order=1", errorUrl: "https://shop.example/ko" };

describe("checkout create input", () => {
  it("maps URLs into the checkout object", () => {
    expect(toCreateCheckoutBody({ ...base, ...urls })).toEqual({ ...base, checkout: urls });
    expect(toCreateCheckoutBody({ ...base, ...urls, redirects: true })).toEqual({ ...base, checkout: urls });
  });

  it("sends no checkout object with redirects: false", () => {
    const body = toCreateCheckoutBody({ ...base, redirects: false });
    expect(body).toEqual(base);
    expect("checkout" in body).toBe(false);
  });

  it.each([
    [{ ...base }, "successUrl"],
    [{ ...base, successUrl: urls.successUrl }, "errorUrl"],
    [{ ...base, ...urls, successUrl: "http://shop.example/ok" }, "successUrl"],
    [{ ...base, ...urls, errorUrl: "/relative/ko" }, "errorUrl"],
    [{ ...base, ...urls, errorUrl: "shop.example/ko" }, "errorUrl"],
    [{ ...base, ...urls, successUrl: "javascript:alert(1)" }, "successUrl"],
    [{ ...base, ...urls, successUrl: " https://shop.example/ok" }, "successUrl"],
    [{ ...base, ...urls, successUrl: "" }, "successUrl"],
    [{ ...base, redirects: false, successUrl: urls.successUrl }, "successUrl"],
    [{ ...base, redirects: false, ...urls }, "successUrl"],
    [{ ...base, redirects: "no" }, "redirects"],
    [{ ...urls, amount: base.amount }, "referenceId"],
    [{ ...base, ...urls, amount: { unit: "iso4217/EUR", value: "9.99" } }, "amount.value"],
    [
      { ...base, redirects: false, amount: { unit: "caip19/eip155:1/erc20:0xabc", value: "1" } },
      "amount.unit",
    ],
    [{ ...base, ...urls, checkout: urls }, "checkout"],
  ])("rejects %j on %s", (input, field) => {
    const error = inputError(() => toCreateCheckoutBody(input as unknown as CreateCheckoutInput));
    expect(error.field).toBe(field);
  });

  it("explains the opt-out when URLs come with redirects: false", () => {
    const error = inputError(() =>
      toCreateCheckoutBody({ ...base, redirects: false, ...urls } as unknown as CreateCheckoutInput),
    );
    expect(error.message).toContain("redirects is false");
  });

  it("refuses a plain-http return URL with a message naming https", () => {
    const error = inputError(() =>
      toCreateCheckoutBody({ ...base, ...urls, successUrl: "http://shop.example/ok" }),
    );
    expect(error.issues[0]?.message).toMatch(/^successUrl must be an absolute https URL/);
  });
});

describe("checkout create response", () => {
  it("parses { paymentId, gatewayUrl } and keeps extra fields", () => {
    const result = readResponse(
      createCheckoutResponseSchema,
      {
        paymentId: "pay_1",
        gatewayUrl: "https://portal.example/p/1",
        expiresAt: "x",
      },
      "strict",
    );
    expect(result.success && unknownField(result.data, "expiresAt")).toBe("x");
    expect(readResponse(createCheckoutResponseSchema, { paymentId: "pay_1" }, "strict").success).toBe(false);
  });
});
