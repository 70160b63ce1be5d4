/**
 * Secrets: the API key never appears in an error (message, stack, cause, util.inspect, JSON), a log
 * line, a hook payload, or the util.inspect/JSON of the client, a request options object or a response, on every
 * error path; ids cannot change the path; nothing is sent to a non-https base URL other than loopback, and the
 * key is not carried to another origin by a redirect.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ConfigurationError,
  ConnectionError,
  InputValidationError,
  MerchantPaymentsClient,
  MerchantPaymentsError,
  type RequestOptions,
  ResponseValidationError,
  TimeoutError,
  UserAbortError,
} from "../../src/index.js";
import { testClient } from "../helpers/clients.js";
import { type Step, useFaultServer } from "../helpers/fault-server.js";
import { FAIL_ON_UNHANDLED } from "../helpers/msw.js";
import { settle } from "../helpers/outcomes.js";
import { expectNoSecret, SECRET_KEY, SECRET_TAIL } from "../helpers/secrets.js";

const server = useFaultServer();

const reported: unknown[] = [];
function client(options: { timeoutMs?: number; baseUrl?: string } = {}) {
  return testClient({
    apiKey: SECRET_KEY,
    baseUrl: options.baseUrl ?? server.url,
    merchantId: "mrch_secret",
    timeoutMs: options.timeoutMs ?? 2_000,
    maxRetries: 1,
    retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 10 },
    hooks: {
      onRequest: (e) => reported.push(e),
      onResponse: (e) => reported.push(e),
      onRetry: (e) => reported.push(e),
    },
    logger: { debug: (record) => reported.push(record), warn: (record) => reported.push(record) },
    logLevel: "debug",
  });
}

async function failureOf(
  steps: Step[],
  call: (c: MerchantPaymentsClient) => Promise<unknown>,
  timeoutMs?: number,
) {
  await server.reset();
  server.script(...steps);
  const result = await settle(() => call(client(timeoutMs ? { timeoutMs } : {})));
  expect(result.ok, "expected a failure").toBe(false);
  return (result as { error: unknown }).error;
}

const status = (c: MerchantPaymentsClient, options?: RequestOptions) => c.payments.status("pay_1", options);
const create = (c: MerchantPaymentsClient, options?: RequestOptions) =>
  c.payments.create({ referenceId: "o", amount: { unit: "iso4217/USD", value: "1" } }, options);
const err = (status: number, code: string): Step => ({ kind: "json", status, body: { message: "no", code } });

describe("the client and what passes through it", () => {
  it("util.inspect, JSON.stringify and String of the client and its namespaces hold no key", () => {
    const sdk = client();
    expectNoSecret(sdk, "the client");
    for (const ns of [sdk.merchants, sdk.settlements, sdk.payments, sdk.checkout, sdk.gateway])
      expectNoSecret(ns);
    expect(inspect(sdk)).toContain("MerchantPaymentsClient");
    expect(JSON.parse(JSON.stringify(sdk))).toEqual({
      mode: "test",
      baseUrl: server.url,
      merchantId: "mrch_secret",
    });
  });

  it("the request options object is left as given, and a response holds no key", async () => {
    await server.reset();
    server.script({ kind: "json", status: 200, body: { status: "processing", isFinal: false, pollInMs: 5 } });
    const options: RequestOptions = { idempotencyKey: "k-1", headers: { "X-Trace": "t" }, timeoutMs: 1_000 };
    const snapshot = structuredClone(options);
    const result = await status(client(), options);
    expect(options).toEqual(snapshot);
    expectNoSecret(options, "the request options");
    expectNoSecret(result, "the response");
  });
});

describe("every error path", () => {
  const PATHS: Array<[string, Step[], (c: MerchantPaymentsClient) => Promise<unknown>, number?]> = [
    ["401 invalid_api_key", [err(401, "invalid_api_key")], status],
    ["403", [err(403, "forbidden")], status],
    ["404", [err(404, "not_found")], status],
    ["409 settlement_asset_conflict", [err(409, "settlement_asset_conflict")], status],
    ["422 unknown code", [err(422, "brand_new")], status],
    ["429 rate_limited", [err(429, "rate_limited")], status],
    ["500", [err(500, "internal")], status],
    [
      "502 HTML",
      [{ kind: "text", status: 502, body: "<html>bad gateway</html>", contentType: "text/html" }],
      status,
    ],
    ["reset before headers", [{ kind: "resetBeforeHeaders" }], status],
    ["reset after headers", [{ kind: "resetAfterHeaders" }], status],
    [
      "body cut off",
      [{ kind: "truncate", status: 200, body: '{"status":"processing","isFinal":false}' }],
      status,
    ],
    ["timeout", [{ kind: "hang" }], status, 100],
    ["unkeyed POST reset", [{ kind: "resetAfterHeaders" }], create],
    ["invalid JSON 200", [{ kind: "text", status: 200, body: "{nope" }], status],
    ["wrong shape 200", [{ kind: "json", status: 200, body: { status: 1 } }], status],
  ];

  it.each(PATHS)("%s: the error holds no key", async (_label, steps, call, timeoutMs) => {
    const error = await failureOf(steps, call, timeoutMs);
    expect(error).toBeInstanceOf(MerchantPaymentsError);
    expectNoSecret(error, "the error");
  });

  it("input, abort and configuration errors hold no key", async () => {
    const sdk = client();
    const errors: unknown[] = [];
    errors.push((await settle(() => sdk.payments.status(""))) as unknown);
    errors.push(
      (await settle(() => sdk.payments.status("pay_1", { signal: AbortSignal.abort() }))) as unknown,
    );
    for (const options of [
      { apiKey: `${SECRET_KEY} x`, baseUrl: server.url },
      { apiKey: `${SECRET_KEY}\n`, baseUrl: server.url },
      { apiKey: SECRET_TAIL, baseUrl: server.url },
      { apiKey: SECRET_KEY, baseUrl: "http://example.com" },
      { apiKey: SECRET_KEY, baseUrl: `https://${SECRET_TAIL}:x@api.example` },
      { apiKey: SECRET_KEY, appId: "a", clientId: "c" },
      { apiKey: SECRET_KEY, baseUrl: server.url, timeoutMs: -1 },
    ]) {
      let thrown: unknown;
      try {
        new MerchantPaymentsClient(options);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigurationError);
      errors.push(thrown);
    }
    const [input, abort] = errors as Array<{ error: unknown }>;
    expect(input?.error).toBeInstanceOf(InputValidationError);
    expect(abort?.error).toBeInstanceOf(UserAbortError);
    expectNoSecret(errors, "input, abort and configuration errors");
  });

  it("hook payloads and log lines of all the paths above hold no key", () => {
    expect(reported.length).toBeGreaterThan(20);
    expectNoSecret(reported, "hook payloads and log lines");
  });
});

describe("what the service or a proxy echoes back", () => {
  // A proxy's debug page or a careless error message may quote the request's headers. The README promises the
  // key never shows in an error, so the SDK must redact its own key from what it keeps of such answers.
  it.each([
    ["an error message quoting the key", err(401, `invalid_api_key: ${SECRET_KEY} is not a key`)],
    [
      "a JSON error body quoting the key in its message",
      {
        kind: "json",
        status: 401,
        body: { code: "invalid_api_key", message: `Key ${SECRET_KEY} was revoked` },
      },
    ],
    [
      "an HTML proxy page listing the request headers",
      { kind: "text", status: 502, body: `<pre>Api-Key: ${SECRET_KEY}</pre>`, contentType: "text/html" },
    ],
  ] as Array<[string, Step]>)("%s", async (_label, step) => {
    const error = await failureOf([step], status);
    expect(error).toBeInstanceOf(MerchantPaymentsError);
    expectNoSecret(error, "an error built from an echoing answer");
  });
});

describe("paths", () => {
  it.each([
    ["../merchants", "..%2Fmerchants"],
    ["a/b", "a%2Fb"],
    ["x?admin=1", "x%3Fadmin%3D1"],
    ["x#frag", "x%23frag"],
    ["..%2F..%2Fv1", "..%252F..%252Fv1"],
    ["%2e%2e", "%252e%252e"],
    ["a\\b", "a%5Cb"],
    ["pay_é", "pay_%C3%A9"],
  ])("the id %j stays one segment on the wire (%s)", async (id, encoded) => {
    await server.reset();
    server.script({ kind: "json", status: 200, body: { status: "processing", isFinal: false, pollInMs: 5 } });
    await client().payments.status(id);
    expect(server.requests.at(-1)?.url).toBe(`/v1/payments/${encoded}/status`);
  });

  it.each(["", ".", "..", " ", "a b", "a\nb", "\t"])("the id %j is refused before sending", async (id) => {
    await server.reset();
    const result = await settle(() => client().payments.status(id));
    expect((result as { error: unknown }).error).toBeInstanceOf(InputValidationError);
    expect(server.requests).toHaveLength(0);
  });
});

describe("base URLs", () => {
  it.each([
    "http://example.com",
    "http://api.merchant-payments.test",
    "http://127.0.0.1.nip.io",
    "http://localhost.evil.example",
    "http://10.0.0.1",
    "http://[::ffff:8.8.8.8]",
    "ftp://api.example",
    "ws://127.0.0.1",
    "file:///etc/passwd",
    "//api.example",
    "api.example",
  ])("%s is refused at construction, so nothing is ever sent", (baseUrl) => {
    const fetchSpy = vi.fn(fetch);
    expect(() => new MerchantPaymentsClient({ apiKey: SECRET_KEY, baseUrl, fetch: fetchSpy })).toThrow(
      ConfigurationError,
    );
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("an http base URL from the environment is refused too", () => {
    vi.stubEnv("MERCHANT_PAYMENTS_BASE_URL", "http://api.example");
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", SECRET_KEY);
    expect(() => new MerchantPaymentsClient()).toThrow(ConfigurationError);
  });

  it.each(["http://127.0.0.1:PORT", "http://localhost:PORT", "http://127.1:PORT", "HTTP://LOCALHOST:PORT"])(
    "loopback %s is allowed, and reached",
    async (template) => {
      await server.reset();
      server.script({
        kind: "json",
        status: 200,
        body: { status: "processing", isFinal: false, pollInMs: 5 },
      });
      const port = new URL(server.url).port;
      const result = await status(client({ baseUrl: template.replace("PORT", port) }));
      expect(result.status).toBe("processing");
      expect(server.requests).toHaveLength(1);
    },
  );
});

describe("redirects", () => {
  /** A second server on another origin that records what reaches it. */
  let other: Server;
  let otherUrl: string;
  const reached: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    other = createServer((req, res) => {
      reached.push(req.headers);
      res.writeHead(200, { "content-type": "application/json", connection: "close" });
      res.end(JSON.stringify({ status: "processing", isFinal: false, pollInMs: 5 }));
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    otherUrl = `http://localhost:${(other.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => other.close(resolve));
  });

  it.each([301, 302, 303, 307, 308])("a %i to another origin does not carry the key there", async (code) => {
    reached.length = 0;
    await server.reset();
    server.script({
      kind: "text",
      status: code,
      body: "",
      headers: { location: `${otherUrl}/v1/payments/pay_1/status` },
    });
    const result = await settle(() => status(client()));
    const leaked = reached.filter((headers) => JSON.stringify(headers).includes(SECRET_TAIL));
    expect(leaked, "the API key was sent to the redirect's origin").toEqual([]);
    if (!result.ok) expect(result.error).toBeInstanceOf(MerchantPaymentsError);
  });

  it("an https service redirecting to a plain-http host never sends anything there", async () => {
    const evil: string[] = [];
    const msw = setupServer(
      http.all("https://api.merchant-payments.test/*", () =>
        HttpResponse.text("", { status: 307, headers: { location: "http://evil.example/steal" } }),
      ),
      http.all("http://evil.example/*", ({ request }) => {
        evil.push(`${request.url} ${request.headers.get("api-key")}`);
        return HttpResponse.json({ status: "processing", isFinal: false, pollInMs: 5 });
      }),
    );
    msw.listen(FAIL_ON_UNHANDLED);
    try {
      const result = await settle(() => status(client({ baseUrl: "https://api.merchant-payments.test" })));
      expect(evil, "a request went to a non-https, non-loopback host").toEqual([]);
      if (!result.ok) expect(result.error).toBeInstanceOf(MerchantPaymentsError);
    } finally {
      msw.close();
    }
  });
});

describe("timeouts and connection errors keep no request", () => {
  it("a ConnectionError's cause and a TimeoutError carry no Request, headers or key", async () => {
    const connection = await failureOf([{ kind: "resetBeforeHeaders" }], status);
    expect(connection).toBeInstanceOf(ConnectionError);
    const timeout = await failureOf([{ kind: "hang" }], status, 80);
    expect(timeout).toBeInstanceOf(TimeoutError);
    for (const error of [connection, timeout]) {
      const text = inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true });
      expect(text).not.toMatch(/api-key/i);
      expect(text).not.toContain("Request {");
    }
    const rve = await failureOf([{ kind: "json", status: 200, body: { wrong: true } }], status);
    expect(rve).toBeInstanceOf(ResponseValidationError);
  });
});

describe("echoes in any spelling, in everything the SDK returns or throws (#12.5)", () => {
  /** Printable ASCII without spaces may hold a quote, a backslash and a slash: JSON escapes each of them. */
  const ODD_KEY = 'mock_test_sk_Qu"o\\te/Sl4sh7e';
  const ODD_TAIL = 'Qu"o\\te/Sl4sh7e';
  const oddClient = (seen: unknown[] = []) =>
    new MerchantPaymentsClient({
      apiKey: ODD_KEY,
      baseUrl: server.url,
      merchantId: "mrch_secret",
      maxRetries: 0,
      hooks: { onResponse: (e) => seen.push(e), onDrift: (e) => seen.push(e) },
      logLevel: "debug",
      logger: { debug: (record) => seen.push(record), warn: (record) => seen.push(record) },
    });
  /** Every rendering of `value` is free of the key's tail, in the raw spelling and in JSON's. */
  const expectNoOddKey = (value: unknown, what: string) => {
    const escaped = JSON.stringify(ODD_TAIL).slice(1, -1);
    const texts = [
      inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      JSON.stringify(value),
    ];
    if (value instanceof Error) texts.push(value.message, value.stack ?? "");
    for (const text of texts) {
      expect(
        text.includes(ODD_TAIL) || text.includes(escaped),
        `${what} leaks the key: ${text.slice(0, 300)}`,
      ).toBe(false);
    }
  };
  /** `\u00XX` for every character: how a JSON encoder that escapes everything writes the key. */
  const unicodeEscaped = (text: string) =>
    [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

  async function answer(
    step: Step,
    call: (c: MerchantPaymentsClient) => Promise<unknown>,
    seen: unknown[] = [],
  ) {
    await server.reset();
    server.script(step);
    return settle(() => call(oddClient(seen)));
  }

  it.each([
    ["raw in the message", JSON.stringify({ code: "invalid_api_key", message: `bad key ${ODD_KEY}` })],
    [
      "JSON-escaped (\\u00XX) in the message",
      `{"code":"invalid_api_key","message":"bad key ${unicodeEscaped(ODD_KEY)}"}`,
    ],
    [
      "in details, as a value and as a key",
      JSON.stringify({ code: "x", message: "m", details: { sent: ODD_KEY, [ODD_KEY]: 1 } }),
    ],
    ["in the code", JSON.stringify({ code: `bad_${ODD_KEY}`, message: "m" })],
  ])("an error body with the key %s", async (_label, body) => {
    const result = await answer({ kind: "text", status: 401, body, contentType: "application/json" }, (c) =>
      c.payments.status("pay_1"),
    );
    expect((result as { error: unknown }).error).toBeInstanceOf(MerchantPaymentsError);
    expectNoOddKey((result as { error: unknown }).error, "the error");
  });

  it.each([
    ["raw", `<pre>Api-Key: ${ODD_KEY}</pre>`],
    ["HTML-escaped", `<pre>Api-Key: ${ODD_KEY.replace('"', "&quot;")}</pre>`],
    ["percent-encoded", `GET /?key=${encodeURIComponent(ODD_KEY)}`],
  ])("a proxy page quoting the key %s (rawBody)", async (_label, body) => {
    const result = await answer({ kind: "text", status: 502, body, contentType: "text/html" }, (c) =>
      c.payments.status("pay_1"),
    );
    const error = (result as { error: { rawBody?: string } }).error;
    expect(error.rawBody).toContain("[redacted]");
    expectNoOddKey(error, "the error");
    expect(error.rawBody?.includes(encodeURIComponent(ODD_TAIL))).toBe(false);
  });

  it("a key echoed in the request-id header reaches neither error.requestId, the logger nor the hooks", async () => {
    const seen: unknown[] = [];
    const result = await answer(
      {
        kind: "json",
        status: 404,
        body: { code: "not_found", message: "no" },
        headers: { "request-id": `req_${ODD_KEY}` },
      },
      (c) => c.payments.status("pay_1"),
      seen,
    );
    const error = (result as { error: { requestId?: string } }).error;
    expect(error.requestId).toBe("req_[redacted]");
    expectNoOddKey(error, "the error");
    expect(seen.length).toBeGreaterThan(0);
    expectNoOddKey(seen, "log lines and hook payloads");
  });

  it("a key echoed inside a 2xx body stays out of the result, its request id and withResponse()", async () => {
    const body = `{"status":"processing","isFinal":false,"pollInMs":5,"echo":"${unicodeEscaped(ODD_KEY)}","raw":${JSON.stringify(ODD_KEY)}}`;
    const step: Step = {
      kind: "text",
      status: 200,
      body,
      contentType: "application/json",
      headers: { "x-request-id": ODD_KEY, "x-echo": ODD_KEY, "api-key": ODD_KEY },
    };
    const seen: unknown[] = [];
    const result = await answer(step, (c) => c.payments.status("pay_1").withResponse(), seen);
    expect(result.ok).toBe(true);
    const { data, response } = (
      result as { value: { data: Record<string, unknown>; response: { headers: Headers } } }
    ).value;
    expect(data).toMatchObject({ status: "processing", echo: "[redacted]", raw: "[redacted]" });
    expectNoOddKey(data, "the result");
    expectNoOddKey(data._requestId, "the result's request id");
    expectNoOddKey(Object.fromEntries(response.headers), "the exposed headers");
    expectNoOddKey(response, "the response metadata");
    expectNoOddKey(seen, "log lines and hook payloads");
  });

  it("a key echoed in another case beside characters outside ASCII, with no escape in the body, is redacted", async () => {
    // The plain-text answer skips the pattern of escaped spellings: what it looks for instead must still find this.
    const plainKey = "mock_test_sk_PlainEcho7Kelvin0s";
    const echoes = [
      plainKey.toUpperCase(),
      `\u212a${plainKey.toLowerCase()}\u017f`,
      `\u0130${plainKey}\u0131`,
    ];
    const body = JSON.stringify({ status: "processing", isFinal: false, pollInMs: 5, echoes });
    await server.reset();
    server.script({ kind: "text", status: 200, body, contentType: "application/json" });
    const plain = new MerchantPaymentsClient({
      apiKey: plainKey,
      baseUrl: server.url,
      merchantId: "mrch_secret",
    });
    const data = (await plain.payments.status("pay_1")) as unknown as { echoes: string[] };
    expect(data.echoes).toEqual(["[redacted]", "\u212a[redacted]\u017f", "\u0130[redacted]\u0131"]);
  });

  it("a key echoed in a 2xx body of the wrong shape stays out of the ResponseValidationError", async () => {
    const body = `{"status":"${unicodeEscaped(ODD_KEY)}","isFinal":"no","${unicodeEscaped(ODD_KEY)}":1}`;
    const result = await answer({ kind: "text", status: 200, body, contentType: "application/json" }, (c) =>
      c.payments.status("pay_1"),
    );
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expectNoOddKey(error, "the error");
  });

  it("a key echoed in a 2xx body that is not JSON stays out of the ResponseValidationError", async () => {
    const result = await answer({ kind: "text", status: 200, body: `oops ${ODD_KEY}` }, (c) =>
      c.payments.status("pay_1"),
    );
    expectNoOddKey((result as { error: unknown }).error, "the error");
  });
});

describe("the key in the spellings a proxy may use, and cut or split (issue 21)", () => {
  /** Every piece of the key's secret part of 6 characters: none may survive anywhere. */
  const pieces = Array.from({ length: SECRET_TAIL.length - 5 }, (_, i) => SECRET_TAIL.slice(i, i + 6));
  const expectNoPiece = (text: string | undefined, what: string) => {
    for (const piece of pieces)
      expect(text?.includes(piece), `${what} holds "${piece}": ${text}`).toBe(false);
  };
  const proxyPage = (body: string): Step => ({ kind: "text", status: 502, body, contentType: "text/html" });

  it("a key straddling the 2 KiB cut of rawBody is redacted before the cut", async () => {
    const body = `${"x".repeat(2048 - 20)}${SECRET_KEY} and more`;
    const error = (await failureOf([proxyPage(body)], (c) => c.payments.status("pay_1"))) as {
      rawBody?: string;
    };
    expect(error.rawBody?.length).toBeLessThanOrEqual(2048);
    expectNoPiece(error.rawBody, "rawBody");
    expectNoSecret(error, "the error");
  });

  it.each(["", "u:", "user:", "merchant:"])(
    "a Basic credential base64(%j + key) is redacted",
    async (user) => {
      const basic = btoa(`${user}${SECRET_KEY}`);
      const error = (await failureOf([proxyPage(`<pre>Authorization: Basic ${basic}</pre>`)], (c) =>
        c.payments.status("pay_1"),
      )) as { rawBody?: string };
      expect(error.rawBody).toContain("[redacted]");
      const left = error.rawBody?.match(/[A-Za-z0-9+/=]{4,}/g) ?? [];
      for (const run of left)
        expectNoPiece(atob(run.slice(0, run.length - (run.length % 4))), "decoded base64");
    },
  );

  it.each([1, 2, 3, 4])("a key percent-encoded %i times is redacted", async (times) => {
    // Every character as %XX (as a tool that encodes all of them writes it), then the percent signs encoded again.
    let encoded = [...SECRET_KEY].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join("");
    for (let i = 1; i < times; i++) encoded = encoded.replaceAll("%", "%25");
    expect(encoded).not.toContain(SECRET_TAIL);
    const error = (await failureOf([proxyPage(`GET /?next=${encoded}`)], (c) =>
      c.payments.status("pay_1"),
    )) as {
      rawBody?: string;
    };
    expect(error.rawBody).toContain("[redacted]");
    let decoded = error.rawBody ?? "";
    for (let i = 0; i < times; i++) decoded = decodeURIComponent(decoded);
    expectNoPiece(decoded, "the decoded rawBody");
  });

  it("a key split across two headers is redacted in both (withResponse, request id)", async () => {
    const cut = SECRET_KEY.length - 13;
    await server.reset();
    server.script({
      kind: "json",
      status: 200,
      body: { status: "processing", isFinal: false, pollInMs: 5 },
      headers: {
        "x-request-id": `req_${SECRET_KEY.slice(cut)}`,
        "x-debug-head": SECRET_KEY.slice(0, cut),
        "x-debug-tail": SECRET_KEY.slice(cut),
      },
    });
    const { data, response } = await client().payments.status("pay_1").withResponse();
    const headers = Object.fromEntries(response.headers);
    expectNoPiece(headers["x-debug-head"], "the first header");
    expectNoPiece(headers["x-debug-tail"], "the second header");
    expectNoPiece(data._requestId, "the request id");
  });
});
