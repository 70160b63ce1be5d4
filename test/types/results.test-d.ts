/**
 * types that name themselves. Results list their documented fields only (a misspelt field does not
 * compile), added fields are reached through `unknownField`, undocumented shapes are JSON, and inputs are named
 * interfaces whose fields resolve.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { z } from "zod/mini";
import {
  type Amount,
  type CancellationResult,
  type CheckoutWithoutRedirectsInput,
  type CheckoutWithRedirectsInput,
  type CreateCheckoutInput,
  type CreateCheckoutResponse,
  type CreateCryptoSettlementsResponse,
  type CreatedMerchant,
  type CreateMerchantInput,
  type CreatePaymentResponse,
  type CryptoSettlement,
  type FetchActionResponse,
  type FiatSettlement,
  type Iso4217AmountInput,
  type JsonValue,
  type ListMerchantsResponse,
  type Merchant,
  type MerchantListItem,
  type MerchantPaymentsClient,
  type MerchantSettlements,
  type MerchantStatus,
  type PaymentInfo,
  type PaymentStatusResult,
  type SettlementsList,
  type UpdateCryptoSettlementResponse,
  unknownField,
  type WithRequestId,
} from "../../src/index.js";
import type {
  createCryptoSettlementsResponseSchema,
  updateCryptoSettlementResponseSchema,
} from "../../src/schemas/index.js";

declare const client: MerchantPaymentsClient;
declare const status: PaymentStatusResult;
declare const merchant: Merchant;

describe("results have no index signature: a misspelt field does not compile", () => {
  it("status, merchant, settlements, payment and checkout results", () => {
    // @ts-expect-error isFinal, not isfinal
    void status.isfinal;
    // @ts-expect-error status, not statsu
    void (merchant.statsu === "active");
    // @ts-expect-error settlements items have id, asset, destination only
    void merchant.settlements.crypto[0]?.assetId;
    // @ts-expect-error info has txId, not txid
    void status.info?.txid;
    // @ts-expect-error the payment link is `link`
    void ({} as CreatePaymentResponse).walletLink;
    // @ts-expect-error the checkout portal address is `gatewayUrl`
    void ({} as CreateCheckoutResponse).gatewayURL;
    // @ts-expect-error a cancellation has paymentId, not id
    void ({} as CancellationResult).id;
    // @ts-expect-error fetchAction answers { actions } only
    void ({} as FetchActionResponse).expiresInMs;
    expectTypeOf<keyof PaymentStatusResult>().toEqualTypeOf<"status" | "isFinal" | "pollInMs" | "info">();
    expectTypeOf<keyof Merchant>().toEqualTypeOf<
      "id" | "name" | "email" | "status" | "iconUrl" | "createdAt" | "settlements"
    >();
  });
});

describe("named types resolve to their documented fields", () => {
  it("results", () => {
    expectTypeOf(client.merchants.retrieve("mrch_1")).resolves.toEqualTypeOf<WithRequestId<Merchant>>();
    expectTypeOf(client.merchants.create({ name: "A", email: "a@shop.example" })).resolves.toEqualTypeOf<
      WithRequestId<CreatedMerchant>
    >();
    expectTypeOf(client.settlements.list("mrch_1")).resolves.toEqualTypeOf<WithRequestId<SettlementsList>>();
    expectTypeOf(
      client.payments.create({ referenceId: "o", amount: { unit: "iso4217/USD", value: "1" } }),
    ).resolves.toEqualTypeOf<WithRequestId<CreatePaymentResponse>>();
    expectTypeOf<CreatePaymentResponse>().toEqualTypeOf<{ id: string; link: string }>();
    expectTypeOf<Merchant["settlements"]>().toEqualTypeOf<MerchantSettlements>();
    expectTypeOf<MerchantSettlements["crypto"]>().toEqualTypeOf<CryptoSettlement[]>();
    expectTypeOf<MerchantSettlements["fiat"]>().toEqualTypeOf<FiatSettlement[]>();
    expectTypeOf<Merchant["status"]>().toEqualTypeOf<MerchantStatus>();
    expectTypeOf<Merchant["email"]>().toEqualTypeOf<string | null>();
    expectTypeOf<PaymentStatusResult["info"]>().toEqualTypeOf<PaymentInfo | null | undefined>();
    expectTypeOf<NonNullable<PaymentInfo["optionAmount"]>>().toEqualTypeOf<Amount>();
  });

  it("inputs", () => {
    expectTypeOf<CreateMerchantInput>().toEqualTypeOf<{ name: string; email: string }>();
    expectTypeOf<CreateCheckoutInput>().toEqualTypeOf<
      CheckoutWithRedirectsInput | CheckoutWithoutRedirectsInput
    >();
    expectTypeOf<CheckoutWithRedirectsInput["amount"]>().toEqualTypeOf<Iso4217AmountInput>();
    expectTypeOf<CheckoutWithRedirectsInput["successUrl"]>().toEqualTypeOf<string>();
    expectTypeOf<CheckoutWithoutRedirectsInput["redirects"]>().toEqualTypeOf<false>();
    // @ts-expect-error merchants.create requires email
    void client.merchants.create({ name: "Acme" });
  });
});

describe("undocumented shapes are JSON", () => {
  it("merchant list items and the settlement write answers", () => {
    expectTypeOf<ListMerchantsResponse["data"]>().toEqualTypeOf<MerchantListItem[]>();
    expectTypeOf<MerchantListItem[string]>().toEqualTypeOf<JsonValue>();
    expectTypeOf<z.output<typeof createCryptoSettlementsResponseSchema>>().toEqualTypeOf<
      CreateCryptoSettlementsResponse | undefined
    >();
    expectTypeOf<z.output<typeof updateCryptoSettlementResponseSchema>>().toEqualTypeOf<
      UpdateCryptoSettlementResponse | undefined
    >();
  });
});

describe("unknownField: the one way to an added field", () => {
  it("reads an undeclared field as JSON and refuses a declared one", () => {
    expectTypeOf(unknownField(merchant, "tier")).toEqualTypeOf<JsonValue | undefined>();
    // @ts-expect-error `name` is declared: read merchant.name
    void unknownField(merchant, "name");
    // @ts-expect-error `isFinal` is declared: read status.isFinal
    void unknownField(status, "isFinal");
  });
});
