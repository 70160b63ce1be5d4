import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { ConfigurationError, MerchantPaymentsClient } from "../src/index.js";
import { useMswServer } from "./helpers/msw.js";
import { LIVE_KEY, TEST_KEY } from "./helpers/recording-server.js";

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
