import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ClientOptions,
  ConfigurationError,
  MerchantPaymentsClient,
  SDK_VERSION,
} from "../../src/index.js";
import { BASE_URL, LIVE_KEY, TEST_KEY } from "../helpers/recording-server.js";

function configError(options: ClientOptions): ConfigurationError {
  try {
    new MerchantPaymentsClient(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error("expected a ConfigurationError");
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe("construction", () => {
  it("tells test from live mode by the key prefix", () => {
    expect(new MerchantPaymentsClient({ apiKey: TEST_KEY, baseUrl: BASE_URL }).mode).toBe("test");
    expect(new MerchantPaymentsClient({ apiKey: LIVE_KEY, baseUrl: BASE_URL }).mode).toBe("live");
    expect(new MerchantPaymentsClient({ apiKey: "acme_test_x", baseUrl: BASE_URL }).mode).toBe("test");
    expect(new MerchantPaymentsClient({ apiKey: "acme_testing", baseUrl: BASE_URL }).mode).toBe("live");
  });

  it("falls back to the environment for the key, base URL and merchant id", () => {
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", TEST_KEY);
    vi.stubEnv("MERCHANT_PAYMENTS_BASE_URL", `${BASE_URL}/`);
    vi.stubEnv("MERCHANT_PAYMENTS_MERCHANT_ID", "mrch_env");
    const client = new MerchantPaymentsClient();
    expect(client).toMatchObject({ mode: "test", baseUrl: BASE_URL, merchantId: "mrch_env" });
  });

  it("prefers options over the environment", () => {
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", TEST_KEY);
    vi.stubEnv("MERCHANT_PAYMENTS_MERCHANT_ID", "mrch_env");
    const client = new MerchantPaymentsClient({
      apiKey: LIVE_KEY,
      baseUrl: BASE_URL,
      merchantId: "mrch_opt",
    });
    expect(client).toMatchObject({ mode: "live", merchantId: "mrch_opt" });
  });

  it("requires credentials and a base URL, and invents no default address", () => {
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", "");
    vi.stubEnv("MERCHANT_PAYMENTS_BASE_URL", "");
    expect(configError({ baseUrl: BASE_URL }).message).toMatch(/MERCHANT_PAYMENTS_API_KEY/);
    expect(configError({ apiKey: TEST_KEY }).message).toMatch(/baseUrl/);
  });

  it("accepts exactly one auth scheme, and App-Id only with Client-Id", () => {
    expect(configError({ apiKey: TEST_KEY, appId: "a", clientId: "c", baseUrl: BASE_URL }).message).toMatch(
      /not both/,
    );
    expect(configError({ appId: "a", baseUrl: BASE_URL }).message).toMatch(/clientId/);
    expect(configError({ clientId: "c", baseUrl: BASE_URL }).message).toMatch(/appId/);
  });

  it("refuses a malformed key without quoting it", () => {
    for (const apiKey of ["no-prefix-here", "mock_test_ with space", "mock_\ntest"]) {
      const error = configError({ apiKey, baseUrl: BASE_URL });
      expect(error.message).not.toContain(apiKey);
    }
  });

  it.each([
    ["http://api.example.com", /https/],
    ["ftp://api.example.com", /https/],
    ["not a url", /absolute URL/],
    ["https://user:pw@api.example.com", /credentials/],
    ["https://api.example.com/?a=1", /query/],
  ])("refuses the base URL %s", (baseUrl, message) => {
    expect(configError({ apiKey: TEST_KEY, baseUrl }).message).toMatch(message);
  });

  it.each(["http://127.0.0.1:4010", "http://localhost:4010", "http://[::1]:4010", "http://127.8.9.10"])(
    "allows plain http to the loopback host %s",
    (baseUrl) => {
      expect(() => new MerchantPaymentsClient({ apiKey: TEST_KEY, baseUrl })).not.toThrow();
    },
  );

  it("requires a version header name to pin a version, and checks the version label", () => {
    expect(configError({ apiKey: TEST_KEY, baseUrl: BASE_URL, apiVersion: "2026-02-19" }).message).toMatch(
      /versionHeader/,
    );
    expect(
      configError({
        apiKey: TEST_KEY,
        baseUrl: BASE_URL,
        apiVersion: "19-02-2026",
        versionHeader: "Acme-Version",
      }).message,
    ).toMatch(/YYYY-MM-DD/);
    expect(
      configError({
        apiKey: TEST_KEY,
        baseUrl: BASE_URL,
        apiVersion: "2026-02-19",
        versionHeader: "Bad Header",
      }).message,
    ).toMatch(/header name/);
  });

  it.each([
    [{ timeoutMs: 0 }, /timeoutMs/],
    [{ timeoutMs: Number.NaN }, /timeoutMs/],
    [{ maxRetries: 1.5 }, /maxRetries/],
    [{ maxRetries: -1 }, /maxRetries/],
    [{ retry: { baseDelayMs: -5 } }, /baseDelayMs/],
    [{ merchantId: "has space" }, /merchantId/],
    [{ fetch: "nope" as unknown as typeof fetch }, /fetch/],
  ])("refuses %o", (options, message) => {
    expect(configError({ apiKey: TEST_KEY, baseUrl: BASE_URL, ...options }).message).toMatch(message);
  });

  it("refuses to run in a browser page unless the caller opts in", () => {
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", {});
    expect(configError({ apiKey: TEST_KEY, baseUrl: BASE_URL }).message).toMatch(/browser/);
    const allowed = new MerchantPaymentsClient({
      apiKey: TEST_KEY,
      baseUrl: BASE_URL,
      dangerouslyAllowBrowser: true,
    });
    expect(allowed.mode).toBe("test");
  });

  it("reports the same version as package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(SDK_VERSION).toBe(pkg.version);
  });
});
