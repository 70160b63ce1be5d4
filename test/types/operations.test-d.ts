import { describe, expectTypeOf, it } from "vitest";
import type {
  CreateCryptoSettlementsResponse,
  MerchantPaymentsClient,
  UpdateCryptoSettlementResponse,
  WithRequestId,
} from "../../src/index.js";
import type { OPERATIONS, ResultOf } from "../../src/operations.js";
import type {
  CancellationResult,
  CreatedMerchant,
  CreatePaymentResponse,
  Merchant,
  PaymentStatusResult,
} from "../../src/schemas/index.js";

describe("the operation table's result types", () => {
  it("a row's result is its response schema's output, unwrapped where the row says so", () => {
    expectTypeOf<ResultOf<typeof OPERATIONS.createPayment>>().toEqualTypeOf<CreatePaymentResponse>();
    expectTypeOf<ResultOf<typeof OPERATIONS.paymentStatus>>().toEqualTypeOf<PaymentStatusResult>();
    expectTypeOf<ResultOf<typeof OPERATIONS.cancelPayment>>().toEqualTypeOf<CancellationResult>();
    expectTypeOf<ResultOf<typeof OPERATIONS.retrieveMerchant>>().toEqualTypeOf<Merchant>();
    expectTypeOf<ResultOf<typeof OPERATIONS.createMerchant>>().toEqualTypeOf<CreatedMerchant>();
    expectTypeOf<ResultOf<typeof OPERATIONS.createPayment>>().not.toBeAny();
  });
});

describe("settlement writes through the client", () => {
  it("resolve to their named answer types, not unknown", () => {
    expectTypeOf<ReturnType<MerchantPaymentsClient["settlements"]["createCrypto"]>>().resolves.toEqualTypeOf<
      WithRequestId<CreateCryptoSettlementsResponse | undefined>
    >();
    expectTypeOf<ReturnType<MerchantPaymentsClient["settlements"]["updateCrypto"]>>().resolves.toEqualTypeOf<
      WithRequestId<UpdateCryptoSettlementResponse | undefined>
    >();
  });
});
