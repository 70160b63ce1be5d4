import { describe, expectTypeOf, it } from "vitest";
import {
  type Action,
  type CheckoutOutcome,
  type CreateCheckoutInput,
  type CreatePaymentInput,
  isWalletRpcAction,
  type KnownPaymentStatus,
  type MerchantPaymentsClient,
  money,
  type PaymentStatus,
  type PaymentStatusResult,
  type TypedData,
  type TypedDataQuantities,
  type UnknownAction,
  type WalletRpcAction,
  type WithRequestId,
} from "../../src/index.js";

declare const client: MerchantPaymentsClient;
const amount = { unit: "iso4217/USD", value: "1050" } as const;
const urls = { successUrl: "https://shop.example/ok", errorUrl: "https://shop.example/ko" };

describe("status results", () => {
  it("payments.status and checkout.status resolve to PaymentStatusResult", () => {
    // Results carry their request id as a non-enumerable `_requestId` (see WithRequestId).
    expectTypeOf(client.payments.status("pay_1")).resolves.toEqualTypeOf<
      WithRequestId<PaymentStatusResult>
    >();
    expectTypeOf(client.checkout.status("pay_1")).resolves.toEqualTypeOf<
      WithRequestId<PaymentStatusResult>
    >();
    expectTypeOf(client.payments.status("pay_1")).resolves.toMatchTypeOf<PaymentStatusResult>();
    expectTypeOf(client.payments.waitForFinal("pay_1")).resolves.toEqualTypeOf<PaymentStatusResult>();
    expectTypeOf(client.payments.watch("pay_1")).toEqualTypeOf<
      AsyncGenerator<PaymentStatusResult, void, undefined>
    >();
  });

  it("PaymentStatusResult has the documented fields", () => {
    expectTypeOf<PaymentStatusResult["isFinal"]>().toEqualTypeOf<boolean>();
    expectTypeOf<PaymentStatusResult["status"]>().toEqualTypeOf<PaymentStatus>();
    expectTypeOf<PaymentStatusResult>().toHaveProperty("pollInMs");
    expectTypeOf<NonNullable<PaymentStatusResult["pollInMs"]>>().toEqualTypeOf<number>();
  });

  it("PaymentStatus keeps the known literals for autocompletion and still accepts new ones", () => {
    expectTypeOf<KnownPaymentStatus>().toEqualTypeOf<
      "requires_action" | "processing" | "succeeded" | "failed" | "expired" | "cancelled"
    >();
    // `Known | (string & {})`: the literals survive (a plain `string` would swallow them and lose autocompletion).
    expectTypeOf<PaymentStatus>().toEqualTypeOf<KnownPaymentStatus | (string & {})>();
    expectTypeOf<PaymentStatus>().not.toEqualTypeOf<string>();
    expectTypeOf<"succeeded">().toExtend<PaymentStatus>();
    expectTypeOf<"on_hold">().toExtend<PaymentStatus>();
    const known: PaymentStatus = "requires_action";
    const later: PaymentStatus = "on_hold";
    expectTypeOf(known).toExtend<string>();
    expectTypeOf(later).toExtend<string>();
  });
});

describe("inputs", () => {
  it("payments.create takes a string amount value and refuses a number at compile time", () => {
    expectTypeOf(client.payments.create).toBeCallableWith({ referenceId: "order-1", amount });
    expectTypeOf(client.payments.create).toBeCallableWith({
      referenceId: "order-1",
      amount: money("10.50", "USD"),
    });
    expectTypeOf<CreatePaymentInput["amount"]["value"]>().toEqualTypeOf<string>();
    // @ts-expect-error amount.value is minor units as a string, never a number
    void client.payments.create({ referenceId: "order-1", amount: { unit: "iso4217/USD", value: 1050 } });
    // @ts-expect-error referenceId is required
    void client.payments.create({ amount });
  });

  it("checkout.create requires both URLs unless redirects is false", () => {
    expectTypeOf(client.checkout.create).toBeCallableWith({ referenceId: "o", amount, ...urls });
    expectTypeOf(client.checkout.create).toBeCallableWith({
      referenceId: "o",
      amount,
      ...urls,
      redirects: true,
    });
    expectTypeOf(client.checkout.create).toBeCallableWith({ referenceId: "o", amount, redirects: false });
    // @ts-expect-error errorUrl is missing
    void client.checkout.create({ referenceId: "o", amount, successUrl: urls.successUrl });
    // @ts-expect-error successUrl is missing
    void client.checkout.create({ referenceId: "o", amount, errorUrl: urls.errorUrl });
    // @ts-expect-error no URLs and no explicit opt-out
    void client.checkout.create({ referenceId: "o", amount });
    // @ts-expect-error URLs cannot come with redirects: false
    void client.checkout.create({ referenceId: "o", amount, ...urls, redirects: false });
    expectTypeOf<{
      referenceId: string;
      amount: typeof amount;
      redirects: false;
    }>().toExtend<CreateCheckoutInput>();
  });

  it("every method takes RequestOptions last", () => {
    expectTypeOf(client.payments.status).toBeCallableWith("pay_1", { merchantId: "mrch_1", timeoutMs: 1000 });
    expectTypeOf(client.payments.create).toBeCallableWith(
      { referenceId: "o", amount },
      { idempotencyKey: "k", signal: AbortSignal.timeout(1000) },
    );
    // @ts-expect-error unknown option
    void client.payments.status("pay_1", { merchant: "mrch_1" });
  });
});

describe("actions", () => {
  it("isWalletRpcAction narrows an Action to WalletRpcAction", () => {
    const action = {} as Action;
    expectTypeOf(action).toEqualTypeOf<WalletRpcAction | UnknownAction>();
    if (isWalletRpcAction(action)) {
      expectTypeOf(action).toEqualTypeOf<WalletRpcAction>();
      expectTypeOf(action.data.params).toEqualTypeOf<string[]>();
      expectTypeOf(action.data.chain_id).toEqualTypeOf<string>();
      expectTypeOf(action.typedData).toEqualTypeOf<TypedData | null>();
      expectTypeOf(action.quantities).toEqualTypeOf<TypedDataQuantities | null>();
      expectTypeOf<TypedDataQuantities["value"]>().toEqualTypeOf<bigint>();
      expectTypeOf<TypedDataQuantities["nonce"]>().toEqualTypeOf<bigint>();
    } else {
      expectTypeOf(action).toEqualTypeOf<UnknownAction>();
      expectTypeOf(action.type).toEqualTypeOf<string>();
    }
  });

  it("fetchAction resolves to actions of that union", () => {
    expectTypeOf(client.gateway.fetchAction("pay_1")).resolves.toHaveProperty("actions");
    expectTypeOf<
      Awaited<ReturnType<MerchantPaymentsClient["gateway"]["fetchAction"]>>["actions"]
    >().toEqualTypeOf<Action[]>();
  });
});

describe("checkout outcome", () => {
  it("next is the union of the five steps and fulfil a boolean", () => {
    expectTypeOf<CheckoutOutcome["next"]>().toEqualTypeOf<
      "fulfil" | "show_error" | "show_expiry" | "show_cancelled" | "keep_waiting"
    >();
    expectTypeOf<CheckoutOutcome["fulfil"]>().toEqualTypeOf<boolean>();
    expectTypeOf<CheckoutOutcome["status"]>().toEqualTypeOf<PaymentStatusResult | undefined>();
    expectTypeOf(
      client.checkout.verifyReturn({ url: "/r", expectedPaymentId: "pay_1" }),
    ).resolves.toEqualTypeOf<CheckoutOutcome>();
  });
});
