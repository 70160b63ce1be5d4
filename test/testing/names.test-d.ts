/**
 * `merchant-payments/testing` names its own types `Mock…`: `Mode`, `MerchantStatus` and `PaymentStatus` mean the
 * SDK's types (a payment status there is an open set), and an import of the wrong one must not compile.
 */
import { expectTypeOf, test } from "vitest";
import type * as testing from "../../src/testing/index.js";

test("the mock's types have names of their own", () => {
  expectTypeOf<testing.MockMode>().toEqualTypeOf<"test" | "live">();
  expectTypeOf<testing.MockMerchantStatus>().toEqualTypeOf<"active" | "inactive" | "suspended">();
  expectTypeOf<testing.MockPaymentStatus>().toEqualTypeOf<
    "requires_action" | "processing" | "succeeded" | "failed" | "expired" | "cancelled"
  >();
  // @ts-expect-error not exported: the SDK's Mode is the one to import
  expectTypeOf<testing.Mode>().toBeString();
  // @ts-expect-error not exported: the SDK's MerchantStatus is the one to import
  expectTypeOf<testing.MerchantStatus>().toBeString();
  // @ts-expect-error not exported: the SDK's PaymentStatus is the one to import
  expectTypeOf<testing.PaymentStatus>().toBeString();
});
