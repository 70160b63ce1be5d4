/**
 * Issue 21: the results a newcomer meets first are typed. A merchant list item has a string `id` that
 * `merchants.retrieve` takes, other fields as JSON; the settlement write answers are named types that show what the
 * document shows of a crypto settlement.
 */
import { describe, expectTypeOf, it } from "vitest";
import type {
  CreateCryptoSettlementsResponse,
  CryptoSettlement,
  JsonValue,
  MerchantListItem,
  MerchantPaymentsClient,
  UpdateCryptoSettlementResponse,
} from "../../src/index.js";

declare const client: MerchantPaymentsClient;

describe("merchants.list items", () => {
  it("have a string id that merchants.retrieve takes", async () => {
    const { data } = await client.merchants.list();
    for (const item of data) {
      expectTypeOf(item.id).toEqualTypeOf<string>();
      void client.merchants.retrieve(item.id);
    }
    expectTypeOf<MerchantListItem["id"]>().toEqualTypeOf<string>();
    // Fields the document does not show stay JSON, to be checked before use.
    expectTypeOf<MerchantListItem["name"]>().toEqualTypeOf<JsonValue>();
  });
});

describe("settlement write answers", () => {
  it("type the crypto settlements they show, tolerate no body, and nothing else", () => {
    expectTypeOf<CreateCryptoSettlementsResponse["crypto"]>().toEqualTypeOf<CryptoSettlement[] | undefined>();
    expectTypeOf<UpdateCryptoSettlementResponse["destination"]>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error no index signature: an added field is read with unknownField
    void ({} as CreateCryptoSettlementsResponse).settlements;
  });
});
