/**
 * What the compiler holds of the inputs and results, checked by vitest's typecheck (these were run-time tests that
 * could not fail: an `expectTypeOf` or a `toBeDefined()` standing in for a `@ts-expect-error`).
 */
import { describe, expectTypeOf, it } from "vitest";
import { type FiatAmount, money } from "../../src/money.js";
import type {
  Action,
  CreateCheckoutInput,
  CreateMerchantInput,
  Merchant,
  PaymentStatus,
  PaymentStatusResult,
  TypedData,
  TypedDataQuantities,
} from "../../src/schemas/index.js";

const base = { referenceId: "order-1", amount: { unit: "iso4217/EUR", value: "999" } };
const urls = { successUrl: "https://shop.example/ok?order=1", errorUrl: "https://shop.example/ko" };

describe("checkout create input", () => {
  it("is a union: URLs are required unless redirects is false", () => {
    // @ts-expect-error URLs are required when redirects are on
    const missing: CreateCheckoutInput = { ...base };
    // @ts-expect-error no URLs with redirects: false
    const both: CreateCheckoutInput = { ...base, redirects: false, ...urls };
    expectTypeOf({ ...base, ...urls }).toExtend<CreateCheckoutInput>();
    expectTypeOf({ ...base, redirects: false as const }).toExtend<CreateCheckoutInput>();
    void [missing, both];
  });
});

describe("gateway actions", () => {
  it("narrow on action.type === 'walletRpc'", () => {
    const action = {} as Action;
    if (action.type === "walletRpc") {
      expectTypeOf(action.typedData).toEqualTypeOf<TypedData | null | undefined>();
      expectTypeOf(action.quantities).toEqualTypeOf<TypedDataQuantities | null | undefined>();
    }
  });
});

describe("merchants", () => {
  it("types name and email as required", () => {
    expectTypeOf<CreateMerchantInput>().toEqualTypeOf<{ name: string; email: string }>();
  });

  it("types status as an open enum", () => {
    expectTypeOf<"active">().toExtend<Merchant["status"]>();
    expectTypeOf<"archived">().toExtend<Merchant["status"]>();
  });
});

describe("payments", () => {
  it("types status as an open enum", () => {
    expectTypeOf<"processing">().toExtend<PaymentStatus>();
    expectTypeOf<"something_new">().toExtend<PaymentStatus>();
    expectTypeOf<PaymentStatusResult["status"]>().toEqualTypeOf<PaymentStatus>();
    expectTypeOf<PaymentStatusResult["isFinal"]>().toEqualTypeOf<boolean>();
  });
});

describe("money", () => {
  it("builds a fiat amount", () => {
    expectTypeOf(money("1", "USD")).toEqualTypeOf<FiatAmount>();
  });
});
