import { describe, expect, it } from "vitest";
import {
  type CreateMerchantInput,
  createMerchantResponseSchema,
  listMerchantsResponseSchema,
  readResponse,
  retrieveMerchantResponseSchema,
  toCreateMerchantBody,
  unknownField,
} from "../../src/schemas/index.js";
import { inputError } from "../helpers/assertions.js";
import { MERCHANT } from "../helpers/fixtures.js";

describe("merchant create input", () => {
  it("maps { name, email } to the wire body, trimmed", () => {
    expect(toCreateMerchantBody({ name: "  Acme Shop ", email: " billing@acme.example " })).toEqual({
      merchantName: "Acme Shop",
      merchantEmail: "billing@acme.example",
    });
  });

  it("requires email: the document leaves it open, and a strict service (the mock is one) refuses a merchant without it", () => {
    const error = inputError(() => toCreateMerchantBody({ name: "Acme" } as unknown as CreateMerchantInput));
    expect(error.field).toBe("email");
    expect(error.message).toBe('email is required: a contact e-mail, like "billing@shop.example"');
  });

  it.each([
    [{}, "name"],
    [{ name: "" }, "name"],
    [{ name: "   " }, "name"],
    [{ name: 42 }, "name"],
    [{ name: "Acme", email: "not-an-email" }, "email"],
    [{ name: "Acme", email: "a@b" }, "email"],
    [{ name: "Acme", email: "a b@c.example" }, "email"],
    [{ name: "Acme", email: "" }, "email"],
    [{ name: "Acme", email: null }, "email"],
    [{ name: "Acme", email: "a@shop.example", merchantName: "Acme" }, "merchantName"],
  ])("rejects %j on %s", (input, field) => {
    expect(inputError(() => toCreateMerchantBody(input as unknown as CreateMerchantInput)).field).toBe(field);
  });

  it("rejects a missing argument", () => {
    expect(inputError(() => toCreateMerchantBody(undefined as unknown as CreateMerchantInput)).field).toBe(
      "input",
    );
  });
});

const merchant = {
  ...MERCHANT,
  settlements: {
    crypto: [{ id: "crypto_1", asset: "eip155:1/erc20:0xabc", destination: "eip155:1:0xdef" }],
    fiat: [{ id: "fiat_1", status: "pending", bankType: "iban" }],
  },
};

describe("merchant responses", () => {
  it("parses GET /v1/merchants/{id} and keeps unknown fields", () => {
    const result = readResponse(
      retrieveMerchantResponseSchema,
      {
        merchant: { ...merchant, tier: "gold", settlements: { ...merchant.settlements, other: [] } },
        extra: true,
      },
      "strict",
    );
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(unknownField(result.data.merchant, "tier")).toBe("gold");
    expect(unknownField(result.data, "extra")).toBe(true);
    expect(unknownField(result.data.merchant.settlements, "other")).toEqual([]);
    expect(result.data.merchant.settlements.crypto[0]?.asset).toBe("eip155:1/erc20:0xabc");
  });

  it("keeps an unknown merchant status (open enum) and types the known ones", () => {
    const result = readResponse(
      retrieveMerchantResponseSchema,
      {
        merchant: { ...merchant, status: "archived" },
      },
      "strict",
    );
    expect(result.success && result.data.merchant.status).toBe("archived");
  });

  it.each([
    ["email", undefined],
    ["iconUrl", undefined],
    ["settlements", { crypto: [] }],
    ["status", 1],
    ["createdAt", null],
  ])("rejects a merchant whose %s is %j", (field, value) => {
    const result = readResponse(
      retrieveMerchantResponseSchema,
      {
        merchant: { ...merchant, [field]: value },
      },
      "strict",
    );
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues[0]?.path.startsWith(`merchant.${field}`)).toBe(true);
  });

  it("parses the created merchant (narrower shape)", () => {
    const result = readResponse(
      createMerchantResponseSchema,
      {
        merchant: { id: "mrch_2", name: "Acme", email: "a@b.example", status: "active", createdAt: "x" },
      },
      "strict",
    );
    expect(result.success).toBe(true);
  });

  it("keeps merchant list items as they are", () => {
    const result = readResponse(
      listMerchantsResponseSchema,
      { data: [{ id: "mrch_1", anything: [1, 2] }] },
      "strict",
    );
    expect(result.success && result.data.data[0]).toEqual({ id: "mrch_1", anything: [1, 2] });
    expect(readResponse(listMerchantsResponseSchema, { data: [] }, "strict").success).toBe(true);
    expect(readResponse(listMerchantsResponseSchema, { data: [1] }, "strict").success).toBe(false);
    expect(readResponse(listMerchantsResponseSchema, {}, "strict").success).toBe(false);
  });
});
