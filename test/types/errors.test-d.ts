import { describe, expectTypeOf, it } from "vitest";
import {
  APIError,
  type ConnectionError,
  isMerchantPaymentsError,
  type MerchantPaymentsError,
  type MerchantPaymentsErrorJSON,
  RateLimitError,
  type TimeoutError,
} from "../../src/index.js";

declare const error: unknown;

describe("errors", () => {
  it("instanceof still narrows, the cross-copy check included", () => {
    if (error instanceof APIError) expectTypeOf(error.status).toEqualTypeOf<number>();
    if (error instanceof RateLimitError) expectTypeOf(error.retryAfterMs).toEqualTypeOf<number | undefined>();
    if (isMerchantPaymentsError(error)) expectTypeOf(error).toEqualTypeOf<MerchantPaymentsError>();
  });

  it("a TimeoutError is a ConnectionError", () => {
    expectTypeOf<TimeoutError>().toExtend<ConnectionError>();
  });

  it("toJSON gives the message, code and request id", () => {
    expectTypeOf<ReturnType<APIError["toJSON"]>>().toEqualTypeOf<MerchantPaymentsErrorJSON>();
    expectTypeOf<MerchantPaymentsErrorJSON>().toHaveProperty("requestId");
  });
});
