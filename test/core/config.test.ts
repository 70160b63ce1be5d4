import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ClientOptions,
  type ConfigurationError,
  MerchantPaymentsClient,
  SDK_VERSION,
} from "../../src/index.js";
import { configError as constructionError } from "../helpers/assertions.js";
import { BASE_URL, LIVE_KEY, TEST_KEY } from "../helpers/recording-server.js";

/** The error constructing a client with `options` throws. */
function configError(options: ClientOptions): ConfigurationError {
  return constructionError(() => new MerchantPaymentsClient(options));
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

const VALID = { apiKey: TEST_KEY, baseUrl: BASE_URL };

describe("unknown and malformed options", () => {
  it.each([
    [{ baseURL: BASE_URL }, "baseURL", "baseUrl"],
    [{ timeout: 5 }, "timeout", "timeoutMs"],
    [{ maxRetires: 1 }, "maxRetires", "maxRetries"],
    [{ defaultHeader: {} }, "defaultHeader", "defaultHeaders"],
    [{ loglevel: "debug" }, "loglevel", "logLevel"],
    [{ retry: { baseDelay: 5 } }, "retry.baseDelay", "retry.baseDelayMs"],
    [{ hooks: { onRequst: () => {} } }, "hooks.onRequst", "hooks.onRequest"],
  ])("refuses the unknown option in %o and names the nearest valid one", (extra, name, nearest) => {
    const message = configError({ ...VALID, ...extra } as ClientOptions).message;
    expect(message).toContain(name);
    expect(message).toContain(`did you mean ${nearest}?`);
  });

  it("reports a misspelt credential option rather than missing credentials", () => {
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", "");
    const error = configError({ apikey: TEST_KEY, baseUrl: BASE_URL } as ClientOptions);
    expect(error.message).toContain("did you mean apiKey?");
    expect(error.message).not.toContain(TEST_KEY);
  });

  it("names an unknown option without advice when nothing is close", () => {
    const message = configError({ ...VALID, somethingElse: 1 } as ClientOptions).message;
    expect(message).toContain("somethingElse");
    expect(message).not.toContain("did you mean");
  });

  it.each([null, TEST_KEY, 42, [TEST_KEY], true])(
    "refuses non-object options %j without quoting them",
    (options) => {
      const error = configError(options as unknown as ClientOptions);
      expect(error.message).toMatch(/options must be an object/);
      expect(error.message).not.toContain(TEST_KEY);
    },
  );

  it("still builds with no argument at all, from the environment", () => {
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", TEST_KEY);
    vi.stubEnv("MERCHANT_PAYMENTS_BASE_URL", BASE_URL);
    expect(new MerchantPaymentsClient().mode).toBe("test");
    expect(new MerchantPaymentsClient(undefined).baseUrl).toBe(BASE_URL);
  });

  it.each([
    ["timeoutMs", { timeoutMs: "30000" }],
    ["maxRetries", { maxRetries: "2" }],
    ["maxResponseBytes", { maxResponseBytes: "1024" }],
    ["retry.baseDelayMs", { retry: { baseDelayMs: "10" } }],
  ])("says that %s was given as a string", (name, extra) => {
    const message = configError({ ...VALID, ...extra } as unknown as ClientOptions).message;
    expect(message).toContain(name);
    expect(message).toMatch(/got a string/);
    expect(message).toMatch(/without quotes/);
  });

  it.each([
    [{ logger: "console" }, /logger must be an object/],
    [{ logger: { warn: "x" } }, /logger\.warn must be a function/],
    [{ hooks: { onRetry: 1 } }, /hooks\.onRetry must be a function/],
    [{ hooks: "x" }, /hooks must be an object/],
    [{ retry: null }, /retry must be an object/],
    [{ logLevel: "verbose" }, /logLevel must be one of "debug", "info", "warn", "error", "off"/],
    [{ allowInsecureHttp: "yes" }, /allowInsecureHttp must be true or false/],
  ])("refuses %o", (extra, message) => {
    expect(configError({ ...VALID, ...extra } as unknown as ClientOptions).message).toMatch(message);
  });

  it.each([
    ["MERCHANT_PAYMENTS_LOG", "loud", { logLevel: "loud" }],
    ["MERCHANT_PAYMENTS_RESPONSE_VALIDATION", "lenient", { responseValidation: "lenient" }],
  ])(
    "a value of %s it does not understand is a warning, once, and the default",
    (variable, value, inCode) => {
      const warnings = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
      try {
        vi.stubEnv(variable, value);
        const first = new MerchantPaymentsClient(VALID);
        new MerchantPaymentsClient(VALID);
        first.withOptions({ timeoutMs: 5_000 });
        const about = warnings.mock.calls.filter(([warning]) => String(warning).includes(variable));
        expect(about).toHaveLength(1);
        expect(String(about[0]?.[0])).toMatch(/ignored, the default is used/);
        expect(String(about[0]?.[0])).not.toContain(value);
        // The same value written in code is a mistake in the code: it still throws.
        expect(configError({ ...VALID, ...inCode } as ClientOptions).message).toContain(
          Object.keys(inCode)[0],
        );
      } finally {
        warnings.mockRestore();
      }
    },
  );
});

describe("footguns", () => {
  it.each([`${BASE_URL}/v1`, `${BASE_URL}/v1/`, `${BASE_URL}/V1`, "https://gateway.example/payments/v1"])(
    "refuses the base URL %s, which already holds the version path",
    (baseUrl) => {
      const message = configError({ apiKey: TEST_KEY, baseUrl }).message;
      expect(message).toMatch(/root address/);
      expect(message).toMatch(/adds \/v1/);
    },
  );

  it("accepts a root address with a path that is not the version", () => {
    const client = new MerchantPaymentsClient({
      apiKey: TEST_KEY,
      baseUrl: "https://gateway.example/payments/",
    });
    expect(client.baseUrl).toBe("https://gateway.example/payments");
  });

  it.each(["Api-Key", "app-id", "CLIENT-ID", "Merchant-Id", "Idempotency-Key", "Content-Length", "Host"])(
    "refuses the versionHeader %s, a header the SDK sets itself",
    (versionHeader) => {
      const message = configError({ ...VALID, apiVersion: "2026-02-19", versionHeader }).message;
      expect(message).toMatch(/versionHeader/);
      expect(message).toMatch(/`<Service>-Version`/);
    },
  );

  it("accepts a <Service>-Version header", () => {
    expect(
      () =>
        new MerchantPaymentsClient({
          ...VALID,
          apiVersion: "2026-02-19.preview",
          versionHeader: "Acme-Version",
        }),
    ).not.toThrow();
  });
});

describe("no ConfigurationError quotes a value that holds a key", () => {
  const keys = [TEST_KEY, LIVE_KEY];
  const cases: Array<[string, (key: string) => ClientOptions]> = [
    ["baseUrl", (key) => ({ apiKey: TEST_KEY, baseUrl: key })],
    ["baseUrl as a host", (key) => ({ apiKey: TEST_KEY, baseUrl: `http://${key}:4010` })],
    ["baseUrl with a path", (key) => ({ apiKey: TEST_KEY, baseUrl: `ftp://api.example/${key}` })],
    ["baseUrl ending in /v1", (key) => ({ apiKey: TEST_KEY, baseUrl: `https://api.example/${key}/v1` })],
    ["apiVersion", (key) => ({ ...VALID, apiVersion: key, versionHeader: "Acme-Version" })],
    ["versionHeader", (key) => ({ ...VALID, apiVersion: "2026-02-19", versionHeader: key })],
    [
      "versionHeader with a space",
      (key) => ({ ...VALID, apiVersion: "2026-02-19", versionHeader: `${key} x` }),
    ],
    ["merchantId", (key) => ({ ...VALID, merchantId: `${key} ` })],
    ["logLevel", (key) => ({ ...VALID, logLevel: key as "debug" })],
    ["timeoutMs", (key) => ({ ...VALID, timeoutMs: key as unknown as number })],
    ["a defaultHeaders value", (key) => ({ ...VALID, defaultHeaders: { "X-Debug": `${key}\n` } })],
    ["a defaultHeaders name", (key) => ({ ...VALID, defaultHeaders: { [`${key} `]: "x" } })],
  ];
  for (const key of keys) {
    it.each(cases)(`a ${key === TEST_KEY ? "test" : "live"} key passed as %s`, (_name, optionsOf) => {
      const error = configError(optionsOf(key));
      expect(error.message).not.toContain(key);
      expect(JSON.stringify(error)).not.toContain(key);
    });
  }
});

describe("plain http to a host other than this machine (a mock in Compose or CI)", () => {
  const MOCK_URL = "http://payments-mock:4010";

  it("is refused by default, and the message names the option", () => {
    expect(configError({ apiKey: TEST_KEY, baseUrl: MOCK_URL }).message).toMatch(/allowInsecureHttp/);
  });

  it("is allowed with allowInsecureHttp and a test-mode key", () => {
    const client = new MerchantPaymentsClient({
      apiKey: TEST_KEY,
      baseUrl: MOCK_URL,
      allowInsecureHttp: true,
    });
    expect(client).toMatchObject({ mode: "test", baseUrl: MOCK_URL });
  });

  it("is allowed with allowInsecureHttp and a test-mode key from the environment", () => {
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", TEST_KEY);
    vi.stubEnv("MERCHANT_PAYMENTS_BASE_URL", MOCK_URL);
    expect(new MerchantPaymentsClient({ allowInsecureHttp: true }).baseUrl).toBe(MOCK_URL);
  });

  it("is refused with a live key, even with allowInsecureHttp", () => {
    const error = configError({ apiKey: LIVE_KEY, baseUrl: MOCK_URL, allowInsecureHttp: true });
    expect(error.message).toMatch(/test-mode key/);
    expect(error.message).not.toContain(LIVE_KEY);
  });

  it("is refused with App-Id authentication, even with allowInsecureHttp", () => {
    const error = configError({
      appId: "app_1",
      clientId: "cli_1",
      baseUrl: MOCK_URL,
      allowInsecureHttp: true,
    });
    expect(error.message).toMatch(/test-mode key/);
  });

  it("is refused with allowInsecureHttp: false", () => {
    expect(configError({ apiKey: TEST_KEY, baseUrl: MOCK_URL, allowInsecureHttp: false }).message).toMatch(
      /allowInsecureHttp/,
    );
  });

  it("changes nothing for https or for loopback hosts", () => {
    expect(
      new MerchantPaymentsClient({ apiKey: LIVE_KEY, baseUrl: BASE_URL, allowInsecureHttp: true }).mode,
    ).toBe("live");
    expect(new MerchantPaymentsClient({ apiKey: LIVE_KEY, baseUrl: "http://127.0.0.1:4010" }).mode).toBe(
      "live",
    );
  });
});

describe("defaultHeaders", () => {
  it.each([
    [{ "Api-Key": "x" }, /Api-Key.*SDK sets/],
    [{ "idempotency-key": "x" }, /idempotency-key.*SDK sets/],
    [{ "Content-Length": "3" }, /Content-Length.*SDK sets/],
    [{ "Acme-Version": "2026-01-01" }, /versionHeader/],
    [{ "Bad Name": "x" }, /header name/],
    [{ "X-Trace": "a\r\nInjected: 1" }, /line breaks/],
    [{ "X-Trace": 5 }, /must be a string/],
    [{ "X-Trace": "a", "x-trace": "b" }, /twice/],
    [{ "X-Debug": TEST_KEY }, /holds the API key/],
    [{ [TEST_KEY]: "x" }, /holds the API key/],
    ["x", /defaultHeaders must be an object/],
  ])("refuses %o", (defaultHeaders, message) => {
    const options = { ...VALID, versionHeader: "Acme-Version", defaultHeaders } as unknown as ClientOptions;
    const error = configError(options);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(TEST_KEY);
  });
});

describe("a runtime that forbids reading the environment (Deno without --allow-env)", () => {
  it("builds a client from options given in code, treating every variable as unset", () => {
    const env = Object.getOwnPropertyDescriptor(process, "env");
    Object.defineProperty(process, "env", {
      configurable: true,
      get() {
        throw new Error('NotCapable: Requires env access to "MERCHANT_PAYMENTS_LOG"');
      },
    });
    try {
      const client = new MerchantPaymentsClient({ apiKey: TEST_KEY, baseUrl: BASE_URL });
      expect(client.mode).toBe("test");
      expect(() => new MerchantPaymentsClient({ baseUrl: BASE_URL })).toThrow(/apiKey/);
    } finally {
      if (env) Object.defineProperty(process, "env", env);
    }
  });
});
