import { inspect } from "node:util";
import { delay, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  type ClientOptions,
  ConflictError,
  ConnectionError,
  InputValidationError,
  InternalServerError,
  MerchantPaymentsClient,
  MerchantPaymentsError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type RequestOptions,
  ResponseValidationError,
  type RetryEvent,
  SDK_VERSION,
  TimeoutError,
  UserAbortError,
} from "../../src/index.js";
import { failure } from "../helpers/assertions.js";
import { testClient } from "../helpers/clients.js";
import { CREATED_MERCHANT as CREATED, final, MERCHANT } from "../helpers/fixtures.js";
import {
  apiError,
  BASE_URL,
  json,
  networkError,
  TEST_KEY,
  useRecordingServer,
} from "../helpers/recording-server.js";
import { passTime, waitUntil, withFakeTime } from "../helpers/time.js";

const mock = useRecordingServer();
/** Retry-After up to 50 ms is honoured, so that the tests can see it uncapped. */
const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 50 };
const client = (options: ClientOptions = {}) => testClient({ retry: FAST_RETRY, ...options });

describe("headers", () => {
  it("sends the API key, Accept and a User-Agent naming the SDK and its version", async () => {
    mock.respond(json({ merchant: MERCHANT }));
    await client().merchants.retrieve("mrch_1");
    const [request] = mock.requests;
    expect(request?.method).toBe("GET");
    expect(request?.url.href).toBe(`${BASE_URL}/v1/merchants/mrch_1`);
    expect(request?.headers.get("api-key")).toBe(TEST_KEY);
    expect(request?.headers.get("accept")).toBe("application/json");
    expect(request?.headers.get("user-agent")).toBe(`merchant-payments/${SDK_VERSION}`);
    expect(request?.headers.has("content-type")).toBe(false);
    expect(request?.headers.has("idempotency-key")).toBe(false);
  });

  it("sends App-Id and Client-Id, and no Api-Key, with wallet credentials", async () => {
    mock.respond(json({ merchant: MERCHANT }));
    const wallet = new MerchantPaymentsClient({ appId: "app_1", clientId: "client_1", baseUrl: BASE_URL });
    await wallet.merchants.retrieve("mrch_1");
    const headers = mock.requests[0]?.headers;
    expect(headers?.get("app-id")).toBe("app_1");
    expect(headers?.get("client-id")).toBe("client_1");
    expect(headers?.has("api-key")).toBe(false);
    expect(wallet.mode).toBe("unknown");
  });

  it("sends a JSON body with Content-Type and a fresh UUID Idempotency-Key on merchant creation", async () => {
    mock.respond(json(CREATED));
    const merchants = client().merchants;
    await merchants.create({ name: "Shop", email: "a@shop.example" });
    await merchants.create({ name: "Shop", email: "billing@shop.example" });
    const [first, second] = mock.requests;
    expect(first?.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(first?.body ?? "")).toEqual({ merchantName: "Shop", merchantEmail: "a@shop.example" });
    const keys = [first?.headers.get("idempotency-key"), second?.headers.get("idempotency-key")];
    for (const key of keys)
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("uses the caller's Idempotency-Key when given", async () => {
    mock.respond(json(CREATED));
    await client().merchants.create(
      { name: "Shop", email: "billing@shop.example" },
      { idempotencyKey: "order-42-merchant" },
    );
    expect(mock.requests[0]?.headers.get("idempotency-key")).toBe("order-42-merchant");
  });

  it("pins the version per client and per call, under the configured header name", async () => {
    mock.respond(json({ merchant: MERCHANT }));
    const pinned = client({ apiVersion: "2026-02-19.preview", versionHeader: "Acme-Version" });
    await pinned.merchants.retrieve("mrch_1");
    await pinned.merchants.retrieve("mrch_1", { apiVersion: "2026-03-01" });
    await client({ versionHeader: "Acme-Version" }).merchants.retrieve("mrch_1");
    expect(mock.requests.map((r) => r.headers.get("acme-version"))).toEqual([
      "2026-02-19.preview",
      "2026-03-01",
      null,
    ]);
  });

  it("refuses a per-call version without a version header name, before sending", async () => {
    const error = await failure(() => client().merchants.retrieve("mrch_1", { apiVersion: "2026-02-19" }));
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).field).toBe("options.apiVersion");
    expect(mock.requests).toHaveLength(0);
  });

  it("passes extra headers, lower-cased, beside the SDK's own", async () => {
    mock.respond(json(CREATED));
    await client().merchants.create(
      { name: "Shop", email: "billing@shop.example" },
      { idempotencyKey: "k1", headers: { "X-Trace": "t-1" } },
    );
    const headers = mock.requests[0]?.headers;
    expect(headers?.get("x-trace")).toBe("t-1");
    expect(headers?.get("api-key")).toBe(TEST_KEY);
    expect(headers?.get("idempotency-key")).toBe("k1");
  });

  it("encodes ids so that they cannot change the path", async () => {
    mock.respond(json({ merchant: MERCHANT }));
    await client().merchants.retrieve("../payments?x=1#y");
    expect(mock.requests[0]?.url.pathname).toBe("/v1/merchants/..%2Fpayments%3Fx%3D1%23y");
    for (const bad of ["", "..", "."]) {
      expect(await failure(() => client().merchants.retrieve(bad))).toBeInstanceOf(InputValidationError);
    }
    expect(mock.requests).toHaveLength(1);
  });

  it("keeps the base URL's own path prefix", async () => {
    mock.respond(json({ merchant: MERCHANT }));
    await client({ baseUrl: `${BASE_URL}/gateway/` }).merchants.retrieve("mrch_1");
    expect(mock.requests[0]?.url.pathname).toBe("/gateway/v1/merchants/mrch_1");
  });
});

describe("what reaches a user's fetch", () => {
  it("is one request per attempt, with the same method, URL, body and headers, and never a redirect followed", async () => {
    const seen: Request[] = [];
    const fetchSpy: typeof fetch = async (input, init) => {
      seen.push(new Request(input, init));
      return seen.length === 1
        ? new Response("", { status: 503 })
        : Response.json({ id: "pay_1", paymentLink: "https://pay.example/pay_1" });
    };
    const sdk = client({ fetch: fetchSpy, merchantId: "mrch_1" });
    await sdk.payments.create(
      { referenceId: "order-1", amount: { unit: "iso4217/USD", value: "100" } },
      { idempotencyKey: "key-1" },
    );
    expect(seen).toHaveLength(2);
    for (const request of seen) {
      expect(request.url).toBe(`${BASE_URL}/v1/payments`);
      expect(request.method).toBe("POST");
      expect(await request.text()).toBe(
        '{"referenceId":"order-1","amount":{"unit":"iso4217/USD","value":"100"}}',
      );
      expect(request.redirect).toBe("manual");
      expect(request.headers.get("api-key")).toBe(TEST_KEY);
      expect(request.headers.get("idempotency-key")).toBe("key-1");
    }
  });

  it("carries the client's headers, each once, a call's own of the same name replacing it", async () => {
    const seen: Headers[] = [];
    const fetchSpy: typeof fetch = async (_input, init) => {
      seen.push(new Headers(init?.headers));
      return Response.json({ merchant: MERCHANT });
    };
    const sdk = client({
      fetch: fetchSpy,
      apiVersion: "2026-02-19.preview",
      versionHeader: "Acme-Version",
      defaultHeaders: { "X-Tenant": "a", Baggage: "b=1" },
    });
    await sdk.merchants.retrieve("mrch_1");
    await sdk.merchants.retrieve("mrch_1", { apiVersion: "2026-03-01", headers: { "x-tenant": "z" } });
    const shown = seen.map((headers) => Object.fromEntries(headers));
    const base = {
      accept: "application/json",
      "api-key": TEST_KEY,
      "user-agent": `merchant-payments/${SDK_VERSION}`,
    };
    expect(shown).toEqual([
      { ...base, "acme-version": "2026-02-19.preview", "x-tenant": "a", baggage: "b=1" },
      { ...base, "acme-version": "2026-03-01", "x-tenant": "z", baggage: "b=1" },
    ]);
  });

  it("carries the client's Merchant-Id on merchant-scoped calls only, a call's merchantId replacing it", async () => {
    const seen: Array<Record<string, string>> = [];
    const fetchSpy: typeof fetch = async (input, init) => {
      seen.push(Object.fromEntries(new Headers(init?.headers)));
      const url = String(input);
      return Response.json(url.includes("/merchants/") ? { merchant: MERCHANT } : final("expired"));
    };
    for (const merchantId of ["mrch_1", undefined]) {
      const sdk = client({ fetch: fetchSpy, merchantId });
      await sdk.merchants.retrieve("mrch_1");
      await sdk.payments.status("pay_1", { merchantId: "mrch_call" });
      if (merchantId !== undefined) await sdk.payments.status("pay_1");
    }
    expect(seen.map((headers) => headers["merchant-id"])).toEqual([
      undefined,
      "mrch_call",
      "mrch_1",
      undefined,
      "mrch_call",
    ]);
    // The other headers are the same on every call, merchant-scoped or not.
    const rest = seen.map(({ "merchant-id": _merchant, ...others }) => others);
    expect(new Set(rest.map((headers) => JSON.stringify(headers))).size).toBe(1);
  });
});

describe("error mapping", () => {
  const cases: Array<[number, string, new (...args: never[]) => APIError]> = [
    [401, "missing_api_key", AuthenticationError],
    [401, "invalid_api_key", AuthenticationError],
    [403, "forbidden", PermissionDeniedError],
    [404, "not_found", NotFoundError],
    [409, "some_conflict", ConflictError],
    [400, "settlement_asset_conflict", ConflictError],
    [422, "brand_new_code", BadRequestError],
    [429, "rate_limited", RateLimitError],
    [400, "rate_limited", RateLimitError],
    [500, "internal", InternalServerError],
    [503, "unavailable", InternalServerError],
  ];
  it.each(cases)(
    "%i %s is a %o carrying status, code, details, request id, method and path",
    async (status, code, Class) => {
      mock.respond(() =>
        HttpResponse.json(
          { message: "nope", code, details: { field: "x" } },
          { status, headers: { "Request-Id": "req_9" } },
        ),
      );
      const error = await failure(() => client({ maxRetries: 0 }).merchants.retrieve("mrch_1"));
      expect(error).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(APIError);
      expect(error).toBeInstanceOf(MerchantPaymentsError);
      expect(error).toMatchObject({
        status,
        code,
        details: { field: "x" },
        requestId: "req_9",
        method: "GET",
        path: "/v1/merchants/mrch_1",
      });
    },
  );

  it.each([
    ["an HTML page", "<html><body>Bad gateway</body></html>", "text/html"],
    ["an empty body", "", "text/plain"],
    ["invalid JSON", "{not json", "application/json"],
    ["JSON without a code", '{"error":"x"}', "application/json"],
  ])("still gives a typed error with the status for %s", async (_label, body, type) => {
    mock.respond(() => new HttpResponse(body, { status: 502, headers: { "Content-Type": type } }));
    const error = await failure(() => client({ maxRetries: 0 }).merchants.retrieve("mrch_1"));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: undefined });
    if (body) expect((error as APIError).rawBody).toBe(body);
  });

  it("rejects a 2xx body of the wrong shape with the raw body and the issues", async () => {
    mock.respond(json({ merchant: { ...MERCHANT, id: 42 } }));
    const error = await failure(() => client().merchants.retrieve("mrch_1"));
    expect(error).toBeInstanceOf(ResponseValidationError);
    const { rawBody, issues } = error as ResponseValidationError;
    expect(rawBody).toEqual({ merchant: { ...MERCHANT, id: 42 } });
    expect(issues[0]?.path).toBe("merchant.id");
  });

  it("rejects a 2xx body that is not JSON", async () => {
    mock.respond(() => new HttpResponse("<html>", { status: 200 }));
    const error = await failure(() => client().merchants.retrieve("mrch_1"));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).rawBody).toBe("<html>");
  });

  it("keeps fields the SDK does not know", async () => {
    mock.respond(json({ merchant: { ...MERCHANT, tier: "gold" }, page: 1 }));
    const merchant = await client().merchants.retrieve("mrch_1");
    expect(merchant).toMatchObject({ id: "mrch_1", tier: "gold" });
  });
});

describe("retries", () => {
  it("retries a GET on 5xx, 408 and a dropped connection, then succeeds", async () => {
    mock.respond(
      apiError(503, "unavailable"),
      apiError(408, "timeout"),
      networkError(),
      json({ merchant: MERCHANT }),
    );
    const merchant = await client({ maxRetries: 3 }).merchants.retrieve("mrch_1");
    expect(merchant.id).toBe("mrch_1");
    expect(mock.requests).toHaveLength(4);
  });

  it("gives up after maxRetries with the last error", async () => {
    mock.respond(apiError(500, "internal"));
    const error = await failure(() => client({ maxRetries: 2 }).merchants.retrieve("mrch_1"));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(mock.requests).toHaveLength(3);
  });

  it("honours a per-call maxRetries", async () => {
    mock.respond(apiError(500, "internal"));
    await failure(() => client({ maxRetries: 5 }).merchants.retrieve("mrch_1", { maxRetries: 1 }));
    expect(mock.requests).toHaveLength(2);
  });

  it("does not retry a 4xx that another attempt cannot fix", async () => {
    mock.respond(apiError(400, "bad_request"), json({ merchant: MERCHANT }));
    expect(await failure(() => client().merchants.retrieve("mrch_1"))).toBeInstanceOf(BadRequestError);
    expect(mock.requests).toHaveLength(1);
  });

  it("retries a POST under its idempotency key, sending the same key on every attempt", async () => {
    mock.respond(apiError(503, "unavailable"), networkError(), json(CREATED));
    const merchant = await client().merchants.create({ name: "Shop", email: "billing@shop.example" });
    expect(merchant.id).toBe("mrch_1");
    const keys = mock.requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(mock.requests.map((r) => r.body)).size).toBe(1);
  });

  it("honours Retry-After in seconds, and caps it", async () => {
    const retries: RetryEvent[] = [];
    mock.respond(
      apiError(429, "rate_limited", { "Retry-After": "0" }),
      apiError(503, "x", { "Retry-After": "3600" }),
      json({ merchant: MERCHANT }),
    );
    await client({ hooks: { onRetry: (e) => retries.push(e) } }).merchants.retrieve("mrch_1");
    expect(retries.map((r) => [r.reason, r.delayMs])).toEqual([
      ["rate_limited", 0],
      ["503", FAST_RETRY.maxRetryAfterMs],
    ]);
  });

  it("honours Retry-After as an HTTP date", async () => {
    const retries: RetryEvent[] = [];
    const inOneSecond = new Date(Date.now() + 1000).toUTCString();
    mock.respond(apiError(429, "rate_limited", { "Retry-After": inOneSecond }), json({ merchant: MERCHANT }));
    await client({
      retry: { ...FAST_RETRY, maxRetryAfterMs: 5000 },
      hooks: { onRetry: (e) => retries.push(e) },
    }).merchants.retrieve("mrch_1");
    expect(retries).toHaveLength(1);
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(0);
    expect(retries[0]?.delayMs).toBeLessThanOrEqual(1000);
  });

  it("treats a rate_limited body as retryable whatever its status", async () => {
    mock.respond(apiError(400, "rate_limited"), json({ merchant: MERCHANT }));
    await client().merchants.retrieve("mrch_1");
    expect(mock.requests).toHaveLength(2);
  });

  it("backs off exponentially with jitter, within the policy's bounds", async () => {
    const retries: RetryEvent[] = [];
    mock.respond(apiError(500, "x"));
    await failure(() =>
      client({
        maxRetries: 3,
        retry: { baseDelayMs: 4, maxDelayMs: 10, maxRetryAfterMs: 50 },
        hooks: { onRetry: (e) => retries.push(e) },
      }).merchants.retrieve("mrch_1"),
    );
    const delays = retries.map((r) => r.delayMs);
    expect(delays).toHaveLength(3);
    // Equal jitter: between half and all of 4, 8, then 10 (capped).
    [4, 8, 10].forEach((backoff, i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(backoff / 2);
      expect(delays[i]).toBeLessThanOrEqual(backoff);
    });
  });
});

describe("timeouts and abort", () => {
  it("times out an attempt that gets no answer, retries, then throws TimeoutError", async () => {
    mock.respond(async () => {
      await delay("infinite");
      return HttpResponse.json({});
    });
    // Fake time: each attempt reaches the mock before its 30 ms pass, however slow the machine is.
    const error = await withFakeTime(async () => {
      const pending = failure(() => client({ timeoutMs: 30, maxRetries: 1 }).merchants.retrieve("mrch_1"));
      await waitUntil(() => mock.requests.length === 1, "the first attempt");
      await passTime(30);
      await passTime(FAST_RETRY.maxDelayMs);
      await waitUntil(() => mock.requests.length === 2, "the retry");
      await passTime(30);
      return pending;
    });
    expect(error).toBeInstanceOf(TimeoutError);
    // "Try again later" is one instanceof: no response in time is a kind of no response.
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ timeoutMs: 30, method: "GET", path: "/v1/merchants/mrch_1" });
    expect(mock.requests).toHaveLength(2);
  });

  it("honours a per-call timeout", async () => {
    mock.respond(async () => {
      await delay("infinite");
      return HttpResponse.json({});
    });
    const error = await failure(() =>
      client({ timeoutMs: 60_000, maxRetries: 0 }).merchants.retrieve("mrch_1", { timeoutMs: 20 }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it("stops at once on abort during an attempt", async () => {
    mock.respond(async () => {
      await delay("infinite");
      return HttpResponse.json({});
    });
    const controller = new AbortController();
    const pending = failure(() => client().merchants.retrieve("mrch_1", { signal: controller.signal }));
    await waitUntil(() => mock.requests.length > 0, "the request");
    controller.abort();
    expect(await pending).toBeInstanceOf(UserAbortError);
  });

  it("stops at once on abort during a retry wait, sending nothing more", async () => {
    mock.respond(apiError(503, "x", { "Retry-After": "3600" }));
    const controller = new AbortController();
    const slow = client({ retry: { ...FAST_RETRY, maxRetryAfterMs: 60_000 } });
    const pending = failure(() => slow.merchants.retrieve("mrch_1", { signal: controller.signal }));
    await waitUntil(() => mock.requests.length > 0, "the request");
    controller.abort();
    expect(await pending).toBeInstanceOf(UserAbortError);
    expect(mock.requests).toHaveLength(1);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const error = await failure(() => client().merchants.retrieve("mrch_1", { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(UserAbortError);
    expect(mock.requests).toHaveLength(0);
  });

  it("reports a connection that never comes up as ConnectionError", async () => {
    mock.respond(networkError());
    const error = await failure(() => client({ maxRetries: 0 }).merchants.retrieve("mrch_1"));
    expect(error).toBeInstanceOf(ConnectionError);
  });
});

describe("per-call options are checked before sending", () => {
  it.each([
    [{ timeoutMs: 0 }, "options.timeoutMs"],
    [{ maxRetries: -1 }, "options.maxRetries"],
    [{ idempotencyKey: "has space" }, "options.idempotencyKey"],
    [{ apiVersion: "v2" }, "options.apiVersion"],
    [{ headers: { "x-a": "line\nbreak" } }, "options.headers.x-a"],
    [{ signal: "abort" }, "options.signal"],
  ])("%o is refused on %s", async (options, field) => {
    const error = await failure(() =>
      client({ versionHeader: "Acme-Version" }).merchants.retrieve("mrch_1", options as RequestOptions),
    );
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).field).toBe(field);
    expect(mock.requests).toHaveLength(0);
  });
});

describe("the API key never leaks", () => {
  it("is absent from errors, stacks, inspect and JSON of the client, hooks and logs", async () => {
    const seen: unknown[] = [];
    const log = (record: unknown) => seen.push(record);
    const leaky = client({
      maxRetries: 1,
      timeoutMs: 30,
      logger: { debug: log, warn: log },
      logLevel: "debug",
      hooks: {
        onRequest: (e) => seen.push(e),
        onResponse: (e) => seen.push(e),
        onRetry: (e) => seen.push(e),
      },
    });
    const errors: unknown[] = [];
    const answers = [
      apiError(401, "invalid_api_key"),
      apiError(503, "x"),
      networkError(),
      json({ merchant: { id: 1 } }),
      async () => {
        await delay("infinite");
        return HttpResponse.json({});
      },
    ];
    for (const answer of answers) {
      mock.respond(answer);
      errors.push(await failure(() => leaky.merchants.retrieve("mrch_1")));
    }
    errors.push(await failure(() => leaky.merchants.retrieve("")));
    const texts = [
      inspect(leaky, { depth: 10, showHidden: true }),
      JSON.stringify(leaky),
      String(leaky),
      ...errors.flatMap((e) => [
        inspect(e, { depth: 10, showHidden: true }),
        JSON.stringify(e),
        (e as Error).stack,
      ]),
      inspect(seen, { depth: 10 }),
      JSON.stringify(seen),
    ];
    expect(errors.every((e) => e instanceof MerchantPaymentsError)).toBe(true);
    for (const text of texts) expect(text).not.toContain(TEST_KEY);
    expect(seen.length).toBeGreaterThan(5);
  });
});

describe("merchants.list query", () => {
  it("refuses a value that is not a string, number or boolean, naming it, before sending", async () => {
    const query = { page: { next: "x" } } as unknown as Record<string, string>;
    const error = await failure(() => client().merchants.list(query));
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).field).toBe("query.page");
    expect(mock.requests).toHaveLength(0);
  });
});

describe("Retry-After is delta-seconds or an HTTP-date, nothing else (#12.6)", () => {
  /** Backoff of the first retry with these settings: between 5 and 10 ms (equal jitter). */
  const BACKOFF = { baseDelayMs: 10, maxDelayMs: 10, maxRetryAfterMs: 50 };
  async function firstDelay(retryAfter: string): Promise<number | undefined> {
    const retries: RetryEvent[] = [];
    mock.respond(apiError(503, "unavailable", { "Retry-After": retryAfter }), json({ merchant: MERCHANT }));
    await client({ retry: BACKOFF, hooks: { onRetry: (e) => retries.push(e) } }).merchants.retrieve("mrch_1");
    return retries[0]?.delayMs;
  }

  it.each(["-1", "1,2", "1.5", "+3", "0x10", "2026-01-01T00:00:10Z", "in a minute"])(
    "%j is ignored: the retry waits the backoff",
    async (value) => {
      const delayMs = await firstDelay(value);
      expect(delayMs).toBeGreaterThanOrEqual(5);
      expect(delayMs).toBeLessThanOrEqual(10);
    },
  );

  it("digits are seconds, capped by retry.maxRetryAfterMs", async () => {
    expect(await firstDelay("0")).toBe(0);
    expect(await firstDelay("7")).toBe(BACKOFF.maxRetryAfterMs);
  });

  it.each([
    ["IMF-fixdate", (d: Date) => d.toUTCString()],
    [
      "obsolete RFC 850",
      (d: Date) => {
        const [day, date, month, year, time] = d.toUTCString().replace(",", "").split(" ");
        const long = {
          Mon: "Monday",
          Tue: "Tuesday",
          Wed: "Wednesday",
          Thu: "Thursday",
          Fri: "Friday",
          Sat: "Saturday",
          Sun: "Sunday",
        };
        return `${long[day as keyof typeof long]}, ${date}-${month}-${year?.slice(2)} ${time} GMT`;
      },
    ],
    [
      "obsolete asctime",
      (d: Date) => {
        const [day, date, month, year, time] = d.toUTCString().replace(",", "").split(" ");
        return `${day} ${month} ${String(Number(date)).padStart(2, " ")} ${time} ${year}`;
      },
    ],
  ])("an HTTP-date in the %s form is honoured (capped)", async (_form, format) => {
    const inAnHour = new Date(Date.now() + 3_600_000);
    expect(await firstDelay(format(inAnHour))).toBe(BACKOFF.maxRetryAfterMs);
  });

  it("RateLimitError.retryAfterMs is capped like the wait", async () => {
    mock.respond(apiError(429, "rate_limited", { "Retry-After": "100000000000000000000000" }));
    const error = await failure(() => client({ maxRetries: 0 }).merchants.retrieve("mrch_1"));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(FAST_RETRY.maxRetryAfterMs);
  });

  it("RateLimitError.retryAfterMs is undefined when Retry-After is not valid", async () => {
    mock.respond(apiError(429, "rate_limited", { "Retry-After": "-1" }));
    const error = await failure(() => client({ maxRetries: 0 }).merchants.retrieve("mrch_1"));
    expect((error as RateLimitError).retryAfterMs).toBeUndefined();
  });
});

describe("control bytes in a header", () => {
  it.each(["\x7f", "\x01", "\x1b[31m", "a\x0bb"])(
    "a value holding %j is refused before sending: per call an input error, on the client a ConfigurationError",
    async (bad) => {
      const error = await failure(() =>
        client().merchants.retrieve("mrch_1", { headers: { "x-trace": `a${bad}b` } }),
      );
      expect(error).toBeInstanceOf(InputValidationError);
      expect((error as Error).message).toContain("control characters");
      expect(mock.requests).toHaveLength(0);
      expect(() => client({ defaultHeaders: { "x-trace": `a${bad}b` } })).toThrow(
        expect.objectContaining({ name: "ConfigurationError", message: expect.stringContaining("control") }),
      );
    },
  );

  it("a tab inside a value is still sent", async () => {
    mock.respond(json({ merchant: MERCHANT }));
    await client().merchants.retrieve("mrch_1", { headers: { "x-trace": "a\tb" } });
    expect(mock.requests[0]?.headers.get("x-trace")).toBe("a\tb");
  });
});
