/**
 * Issues #11 and #12, the policy's reading of answers over a raw loopback server: a refusal from something in between
 * is not the service's, an answer that arrived is never reported as unsent, an observer that throws changes nothing,
 * and an answer too large or nested too deep ends in a typed, non-retried error instead of a crash.
 */
import { describe, expect, it } from "vitest";
import {
  APIError,
  type ClientOptions,
  InternalServerError,
  MAX_JSON_DEPTH,
  MerchantPaymentsClient,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
} from "../../src/index.js";
import { testClient } from "../helpers/clients.js";
import { type Step, useFaultServer } from "../helpers/fault-server.js";
import { settle } from "../helpers/outcomes.js";
import { SECRET_KEY } from "../helpers/secrets.js";

const server = useFaultServer();

function client(options: ClientOptions = {}) {
  return testClient({
    apiKey: SECRET_KEY,
    baseUrl: server.url,
    merchantId: "mrch_hostile",
    maxRetries: 3,
    retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 5 },
    ...options,
  });
}

const AMOUNT = { unit: "iso4217/USD", value: "100" };
const createPayment = (c: MerchantPaymentsClient, idempotencyKey?: string) =>
  c.payments.create(
    { referenceId: "order-1", amount: AMOUNT },
    idempotencyKey ? { idempotencyKey } : undefined,
  );
const CREATED: Step = {
  kind: "json",
  status: 201,
  body: { id: "pay_1", paymentLink: "https://pay.example/p" },
};

async function run(
  steps: Step[],
  call: (c: MerchantPaymentsClient) => Promise<unknown>,
  options?: ClientOptions,
) {
  await server.reset();
  server.script(...steps);
  return settle(() => call(client(options)));
}

describe("refusals from something in between (#12.4)", () => {
  it.each([
    ["a proxy's bare 429", { kind: "text", status: 429, body: "Too Many Requests" }, RateLimitError],
    [
      "a 429 with JSON that is not the service's error",
      { kind: "json", status: 429, body: { error: "slow down" } },
      RateLimitError,
    ],
    [
      "a gateway's 502 page",
      { kind: "text", status: 502, body: "<html>Bad gateway</html>", contentType: "text/html" },
      InternalServerError,
    ],
  ] as Array<[string, Step, typeof APIError]>)(
    "after %s, a POST is repeated under the key the SDK made for it, and succeeds",
    async (_label, refusal) => {
      const result = await run([refusal, CREATED], (c) => createPayment(c));
      expect(result.ok).toBe(true);
      const posts = server.requests.filter((r) => r.method === "POST");
      expect(posts).toHaveLength(2);
      expect(posts[0]?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(posts[1]?.headers["idempotency-key"]).toBe(posts[0]?.headers["idempotency-key"]);
    },
  );

  it("after the service's own rate_limited body, the same POST is repeated and succeeds", async () => {
    const refusal: Step = { kind: "json", status: 429, body: { code: "rate_limited", message: "slow down" } };
    const result = await run([refusal, CREATED], (c) => createPayment(c));
    expect(result.ok).toBe(true);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body).toBe(server.requests[0]?.body);
  });

  it("after a bare 429, a keyed POST or a GET is repeated", async () => {
    const bare: Step = { kind: "text", status: 429, body: "Too Many Requests" };
    expect((await run([bare, CREATED], (c) => createPayment(c, "order-1-key"))).ok).toBe(true);
    expect(server.requests).toHaveLength(2);
    const status: Step = {
      kind: "json",
      status: 200,
      body: { status: "processing", isFinal: false, pollInMs: 5 },
    };
    expect((await run([bare, status], (c) => c.payments.status("pay_1"))).ok).toBe(true);
    expect(server.requests).toHaveLength(2);
  });
});

describe("an answer that arrived is never reported as unsent (#11)", () => {
  it("a logger whose debug throws leaves a 201 payments.create() a success, sent once", async () => {
    const logger = {
      debug: () => {
        throw new Error("logger is broken");
      },
      warn: () => {
        throw new Error("logger is broken");
      },
    };
    const result = await run([CREATED], (c) => createPayment(c), { logger });
    expect(result).toMatchObject({ ok: true, value: { id: "pay_1" } });
    expect(server.requests).toHaveLength(1);
  });

  it("hooks that throw leave a 201 a success, sent once", async () => {
    const boom = () => {
      throw new Error("hook is broken");
    };
    const hooks = { onRequest: boom, onResponse: boom, onRetry: boom, onDrift: boom };
    const result = await run([CREATED], (c) => createPayment(c), { hooks });
    expect(result).toMatchObject({ ok: true, value: { id: "pay_1" } });
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ["not JSON", { kind: "text", status: 201, body: "{created" }],
    ["the wrong shape", { kind: "json", status: 201, body: { id: 42 } }],
  ] as Array<[string, Step]>)(
    "a 201 whose body is %s is a ResponseValidationError, not retried even under a key",
    async (_label, answer) => {
      const result = await run([answer, CREATED], (c) => createPayment(c, "order-1-key"));
      expect((result as { error: unknown }).error).toBeInstanceOf(ResponseValidationError);
      expect(server.requests).toHaveLength(1);
    },
  );
});

describe("answers too deep or too large (#12.3)", () => {
  const deep = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

  it(`a 2xx body nested deeper than ${MAX_JSON_DEPTH} levels is a ResponseTooLargeError, sent once, safe to stringify`, async () => {
    const answer: Step = { kind: "text", status: 200, body: deep(100_000), contentType: "application/json" };
    const result = await run([answer], (c) => c.payments.status("pay_1"));
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({
      limitDepth: MAX_JSON_DEPTH,
      method: "GET",
      path: "/v1/payments/pay_1/status",
    });
    expect(server.requests).toHaveLength(1);
    expect(() => JSON.stringify(error)).not.toThrow();
  });

  it("a 2xx body nested exactly to the bound is read", async () => {
    const within = `{"status":"processing","isFinal":false,"pollInMs":5,"x":${deep(MAX_JSON_DEPTH - 1)}}`;
    const answer: Step = { kind: "text", status: 200, body: within, contentType: "application/json" };
    const result = await run([answer], (c) => c.payments.status("pay_1"));
    expect(result.ok).toBe(true);
  });

  it("an error body nested too deep still gives the typed error and its code, without keeping the nested details", async () => {
    const body = `{"code":"not_found","message":"x","details":{"d":${deep(100_000)}}}`;
    const answer: Step = { kind: "text", status: 404, body, contentType: "application/json" };
    const result = await run([answer], (c) => c.payments.status("pay_1"));
    const error = (result as { error: APIError }).error;
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 404, code: "not_found", details: undefined });
    expect(() => JSON.stringify(error)).not.toThrow();
  });

  // Needs the wire's byte limit (WIRE's http.ts): today's wire reads the whole text whatever its size.
  it("a body larger than maxResponseBytes from the user's fetch is a ResponseTooLargeError naming the limit, fetched once", async () => {
    let calls = 0;
    const large: typeof fetch = async () => {
      calls++;
      return new Response(`{"status":"processing","isFinal":false,"pad":"${"x".repeat(2_000_000)}"}`, {
        headers: { "content-type": "application/json" },
      });
    };
    const sdk = new MerchantPaymentsClient({
      apiKey: SECRET_KEY,
      baseUrl: "https://api.merchant-payments.test",
      merchantId: "mrch_hostile",
      fetch: large,
      maxResponseBytes: 65_536,
    });
    const result = await settle(() => sdk.payments.status("pay_1"));
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limitBytes: 65_536, method: "GET", path: "/v1/payments/pay_1/status" });
    expect(calls).toBe(1);
  });

  // Needs the wire's byte limit too.
  it("a body larger than maxResponseBytes from a loopback server is a ResponseTooLargeError, sent once", async () => {
    const answer: Step = {
      kind: "text",
      status: 200,
      body: "x".repeat(300_000),
      contentType: "application/json",
    };
    const result = await run([answer], (c) => c.payments.status("pay_1"), { maxResponseBytes: 65_536 });
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limitBytes: 65_536 });
    expect(server.requests).toHaveLength(1);
  });
});
