import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { type ClientOptions, MerchantPaymentsClient } from "../src/index.js";
import { configError } from "./helpers/assertions.js";
import { FAST_RETRY } from "./helpers/clients.js";
import { BASE_URL, json, LIVE_KEY, TEST_KEY, useRecordingServer } from "./helpers/recording-server.js";

const mock = useRecordingServer();
const PROCESSING = { status: "processing", isFinal: false, pollInMs: 5 };

function client(options: ClientOptions = {}): MerchantPaymentsClient {
  return new MerchantPaymentsClient({ apiKey: TEST_KEY, baseUrl: BASE_URL, retry: FAST_RETRY, ...options });
}

/** The headers of the one request `call` sends. */
async function headersOf(call: () => Promise<unknown>): Promise<Headers> {
  mock.respond(json(PROCESSING));
  const before = mock.requests.length;
  await call();
  expect(mock.requests).toHaveLength(before + 1);
  return mock.requests[before]!.headers;
}

describe("defaultHeaders", () => {
  it("are sent with every request, beside the credentials", async () => {
    const sdk = client({ merchantId: "mrch_1", defaultHeaders: { "X-Trace-Id": "t-1", Baggage: "a=1" } });
    const headers = await headersOf(() => sdk.payments.status("pay_1"));
    expect(headers.get("x-trace-id")).toBe("t-1");
    expect(headers.get("baggage")).toBe("a=1");
    expect(headers.get("api-key")).toBe(TEST_KEY);
    expect(headers.get("merchant-id")).toBe("mrch_1");
  });

  it("are overridden by a call's own headers", async () => {
    const sdk = client({ merchantId: "mrch_1", defaultHeaders: { "X-Trace-Id": "t-1" } });
    const headers = await headersOf(() => sdk.payments.status("pay_1", { headers: { "x-trace-id": "t-2" } }));
    expect(headers.get("x-trace-id")).toBe("t-2");
  });

  it("are copied: changing the object given later changes nothing", async () => {
    const defaultHeaders: Record<string, string> = { "X-Trace-Id": "t-1" };
    const sdk = client({ merchantId: "mrch_1", defaultHeaders });
    defaultHeaders["X-Trace-Id"] = "changed";
    defaultHeaders["X-Added"] = "later";
    const headers = await headersOf(() => sdk.payments.status("pay_1"));
    expect(headers.get("x-trace-id")).toBe("t-1");
    expect(headers.has("x-added")).toBe(false);
  });
});

describe("withOptions", () => {
  it("returns a new client with the overrides, and leaves this one as it was", async () => {
    const base = client({ merchantId: "mrch_1", defaultHeaders: { "X-Tenant": "a" } });
    const derived = base.withOptions({ merchantId: "mrch_2", defaultHeaders: { "X-Tenant": "b" } });
    expect(derived).toBeInstanceOf(MerchantPaymentsClient);
    expect(derived).not.toBe(base);
    expect(derived.merchantId).toBe("mrch_2");
    expect(base.merchantId).toBe("mrch_1");
    const derivedHeaders = await headersOf(() => derived.payments.status("pay_1"));
    expect(derivedHeaders.get("merchant-id")).toBe("mrch_2");
    expect(derivedHeaders.get("x-tenant")).toBe("b");
    const baseHeaders = await headersOf(() => base.payments.status("pay_1"));
    expect(baseHeaders.get("merchant-id")).toBe("mrch_1");
    expect(baseHeaders.get("x-tenant")).toBe("a");
  });

  it("keeps the credentials, and shows them nowhere", async () => {
    const derived = client({ merchantId: "mrch_1" }).withOptions({ timeoutMs: 5_000 });
    expect(derived.mode).toBe("test");
    const headers = await headersOf(() => derived.payments.status("pay_1"));
    expect(headers.get("api-key")).toBe(TEST_KEY);
    for (const shown of [
      inspect(derived),
      inspect(derived, { showHidden: true, depth: 5 }),
      JSON.stringify(derived),
    ])
      expect(shown).not.toContain(TEST_KEY);
    expect(Object.values(derived)).not.toContain(TEST_KEY);
  });

  it("keeps credentials read from the environment, even once the environment changes", async () => {
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", TEST_KEY);
    const base = new MerchantPaymentsClient({ baseUrl: BASE_URL, merchantId: "mrch_1" });
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", LIVE_KEY);
    const derived = base.withOptions({ merchantId: "mrch_2" });
    expect(derived.mode).toBe("test");
    expect((await headersOf(() => derived.payments.status("pay_1"))).get("api-key")).toBe(TEST_KEY);
  });

  it("takes new credentials whole, whichever scheme they use", () => {
    const base = client();
    expect(base.withOptions({ apiKey: LIVE_KEY }).mode).toBe("live");
    expect(base.withOptions({ appId: "app_1", clientId: "cli_1" }).mode).toBe("unknown");
  });

  it("shares nothing mutable: the overrides object can change afterwards", async () => {
    const overrides = { merchantId: "mrch_2", defaultHeaders: { "X-Tenant": "b" } };
    const derived = client().withOptions(overrides);
    overrides.merchantId = "mrch_changed";
    overrides.defaultHeaders["X-Tenant"] = "changed";
    const headers = await headersOf(() => derived.payments.status("pay_1"));
    expect(headers.get("merchant-id")).toBe("mrch_2");
    expect(headers.get("x-tenant")).toBe("b");
  });

  it("checks the overrides as the constructor does", () => {
    const base = client();
    expect(configError(() => base.withOptions({ baseURL: BASE_URL } as ClientOptions)).message).toContain(
      "did you mean baseUrl?",
    );
    expect(configError(() => base.withOptions(null as unknown as ClientOptions)).message).toMatch(
      /overrides must be an object/,
    );
    expect(
      configError(() => base.withOptions({ timeoutMs: "30000" } as unknown as ClientOptions)).message,
    ).toMatch(/got a string/);
  });

  it("keeps a live key off plain http, as the constructor does", () => {
    const mockClient = client({ baseUrl: "http://payments-mock:4010", allowInsecureHttp: true });
    const error = configError(() => mockClient.withOptions({ apiKey: LIVE_KEY }));
    expect(error.message).toMatch(/test-mode key/);
    expect(error.message).not.toContain(LIVE_KEY);
  });
});
