import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { InputValidationError, MerchantPaymentsClient } from "../../src/index.js";
import { useMswServer } from "../helpers/msw.js";

const LOCAL_MOCK = "http://127.0.0.1:4010";
const REMOTE = "https://api.merchant-payments.test";
const bodies: unknown[] = [];
const _server = useMswServer(
  http.post("*/v1/merchant/payment", async ({ request }) => {
    bodies.push(await request.json());
    return HttpResponse.json({ paymentId: "pay_1", gatewayUrl: `${LOCAL_MOCK}/portal/pay_1` });
  }),
);

const input = {
  referenceId: "order-1",
  amount: { unit: "iso4217/USD", value: "1000" },
  successUrl: "http://127.0.0.1:3000/checkout/success",
  errorUrl: "http://localhost:3000/checkout/error",
};

describe("checkout return URLs against a local mock", () => {
  it("accepts http loopback return URLs when the client talks to a loopback base URL", async () => {
    const client = new MerchantPaymentsClient({
      apiKey: "mock_test_k",
      baseUrl: LOCAL_MOCK,
      merchantId: "mrch_1",
    });
    await client.checkout.create(input);
    expect(bodies.at(-1)).toMatchObject({
      checkout: { successUrl: input.successUrl, errorUrl: input.errorUrl },
    });
  });

  it("still refuses http return URLs that are not loopback, even against a local mock", async () => {
    const client = new MerchantPaymentsClient({
      apiKey: "mock_test_k",
      baseUrl: LOCAL_MOCK,
      merchantId: "mrch_1",
    });
    const error = await client.checkout
      .create({ ...input, errorUrl: "http://shop.example/error" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect(error.field).toBe("errorUrl");
  });

  it("refuses http loopback return URLs when the client talks to the real service", async () => {
    const client = new MerchantPaymentsClient({
      apiKey: "mock_test_k",
      baseUrl: REMOTE,
      merchantId: "mrch_1",
    });
    const sent = bodies.length;
    const error = await client.checkout.create(input).catch((e) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect(error.field).toBe("successUrl");
    expect(bodies).toHaveLength(sent);
  });
});
