import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { ConfigurationError, InputValidationError, MerchantPaymentsClient } from "../../src/index.js";
import { createMockService } from "../../src/testing/index.js";
import { useMswServer } from "../helpers/msw.js";
import { LIVE_KEY, TEST_KEY } from "../helpers/recording-server.js";

// A mock service reached by name over plain http, as in Docker Compose or a CI service container. MSW answers in
// process: nothing leaves this machine.
const MOCK_URL = "http://payments-mock:4010";
const seen: Array<{ url: string; apiKey: string | null }> = [];
const _server = useMswServer(
  http.get(`${MOCK_URL}/v1/payments/:id/status`, ({ request }) => {
    seen.push({ url: request.url, apiKey: request.headers.get("api-key") });
    return HttpResponse.json({ status: "processing", isFinal: false, pollInMs: 5 });
  }),
);

describe("a mock service over plain http on another host", () => {
  it("is reached with allowInsecureHttp and a test-mode key", async () => {
    const client = new MerchantPaymentsClient({
      apiKey: TEST_KEY,
      baseUrl: MOCK_URL,
      allowInsecureHttp: true,
      merchantId: "mrch_1",
    });
    const status = await client.payments.status("pay_1");
    expect(status.status).toBe("processing");
    expect(seen).toEqual([{ url: `${MOCK_URL}/v1/payments/pay_1/status`, apiKey: TEST_KEY }]);
  });

  it.each([
    ["a live key", { apiKey: LIVE_KEY }],
    ["App-Id credentials", { appId: "app_1", clientId: "cli_1" }],
  ])("is never reached with %s: the constructor refuses before anything is sent", (_label, credentials) => {
    seen.length = 0;
    expect(
      () => new MerchantPaymentsClient({ ...credentials, baseUrl: MOCK_URL, allowInsecureHttp: true }),
    ).toThrow(ConfigurationError);
    expect(seen).toEqual([]);
  });
});

describe("a redirect round-trip without TLS (a shop and the mock in Docker Compose)", () => {
  it("sends plain-http return URLs under allowInsecureHttp with a test key, and verifies the return", async () => {
    const mock = createMockService({ allowInsecureHttp: true });
    const client = new MerchantPaymentsClient({
      apiKey: mock.keys.test,
      baseUrl: "http://payments-mock:4010",
      merchantId: mock.merchantId,
      allowInsecureHttp: true,
      fetch: (input, init) =>
        mock.fetch(String(input).replace("http://payments-mock:4010", mock.baseUrl), init),
    });
    const { paymentId } = await client.checkout.create({
      referenceId: "order-compose",
      amount: { unit: "iso4217/USD", value: "500" },
      successUrl: "http://app:3000/orders/order-compose/success",
      errorUrl: "http://app:3000/orders/order-compose/failure",
    });
    const returnUrl = mock.simulateBuyer(paymentId, { outcome: "success" });
    expect(returnUrl).toBe(`http://app:3000/orders/order-compose/success?payment_id=${paymentId}`);
    const outcome = await client.checkout.verifyReturn({ url: returnUrl!, expectedPaymentId: paymentId });
    expect(outcome.fulfil).toBe(true);
  });

  it("still refuses plain-http return URLs to another host without allowInsecureHttp", async () => {
    const mock = createMockService();
    const client = new MerchantPaymentsClient({
      apiKey: mock.keys.test,
      baseUrl: mock.baseUrl,
      fetch: mock.fetch,
    });
    await expect(
      client.checkout.create(
        {
          referenceId: "order-1",
          amount: { unit: "iso4217/USD", value: "500" },
          successUrl: "http://app:3000/ok",
          errorUrl: "http://app:3000/ko",
        },
        { merchantId: mock.merchantId },
      ),
    ).rejects.toBeInstanceOf(InputValidationError);
    expect(mock.requests).toEqual([]);
  });
});
