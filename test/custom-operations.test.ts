/**
 * `client.request()`: a custom operation gets every guarantee of the built-in ones (they share one path: see
 * custom-operations-one-path.test.ts), and a bad description is refused before anything is sent.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import {
  ConfigurationError,
  type DriftEvent,
  type CustomOperation,
  InputValidationError,
  type MerchantPaymentsClient,
  NotFoundError,
  ResponseValidationError,
  InternalServerError,
} from "../src/index.js";
import { failure } from "./helpers/assertions.js";
import { testClient } from "./helpers/clients.js";
import { createMockService } from "../src/testing/index.js";
import { apiError, json, useRecordingServer } from "./helpers/recording-server.js";

const recording = useRecordingServer();
const client = (merchantId?: string) => testClient(merchantId === undefined ? {} : { merchantId });

/** The operation must be refused with a ConfigurationError whose message holds `problem`, nothing sent. */
async function refused(operation: unknown, problem: string | RegExp, c: MerchantPaymentsClient = client()) {
  const error = await failure(() => c.request(operation as CustomOperation));
  expect(error).toBeInstanceOf(ConfigurationError);
  expect((error as Error).message).toMatch(problem);
  expect(recording.requests).toHaveLength(0);
}

describe("a custom operation's description is refused before anything is sent", () => {
  it.each([
    ["an absolute URL", "https://api.merchant-payments.test/v1/merchants", /not an absolute URL/],
    ["another origin", "https://evil.example/v1/merchants", /not an absolute URL/],
    ["a protocol-relative URL", "//evil.example/v1/merchants", /protocol-relative/],
    ["a path without its leading /", "v1/merchants", /must start with \//],
    ["a .. segment", "/v1/merchants/../admin", /"\." or "\.\." segment/],
    ["a . segment", "/v1/./merchants", /"\." or "\.\." segment/],
    ["an encoded slash", "/v1/merchants%2Fadmin", /escaped slash/],
    ["an encoded dot segment", "/v1/%2e%2e/admin", /escaped slash, backslash or dot/],
    ["an encoded backslash", "/v1/merchants%5Cadmin", /escaped slash/],
    ["a backslash", "/v1\\merchants", /backslash/],
    ["a query string", "/v1/merchants?limit=2", /query string/],
    ["a fragment", "/v1/merchants#top", /query string or fragment/],
    ["an empty segment", "/v1//merchants", /empty segment/],
    ["a parameter inside a segment", "/v1/merchants/m_{merchantId}", /malformed parameter/],
    ["an unclosed parameter", "/v1/merchants/{merchantId", /malformed parameter/],
    ["a space", "/v1/mer chants", /encode them/],
  ])("%s", async (_, path, problem) => {
    await refused({ method: "GET", path }, problem);
  });

  it("a {name} without a param, and a param the path does not name", async () => {
    await refused(
      { method: "GET", path: "/v1/merchants/{merchantId}" },
      /names \{merchantId\}, and params gives no merchantId/,
    );
    await refused(
      { method: "GET", path: "/v1/merchants", params: { merchantId: "mrch_1" } },
      /params gives merchantId, which the path does not name/,
    );
  });

  it.each(["HEAD", "OPTIONS", "TRACE", "CONNECT", "get", 7])("the method %s", async (method) => {
    await refused({ method, path: "/v1/merchants" }, /method must be one of GET, POST, PUT, PATCH, DELETE/);
  });

  it("an unknown field, with advice; a GET with a body; a response that is no schema; bad flags", async () => {
    await refused(
      { method: "GET", path: "/v1/merchants", parmas: {} },
      /field parmas is not known \(did you mean params\?\)/,
    );
    await refused(
      { method: "GET", path: "/v1/merchants", headers: {} },
      /request options go in the second argument/,
    );
    await refused({ method: "GET", path: "/v1/merchants", body: { a: 1 } }, /a GET cannot carry a body/);
    await refused(
      { method: "GET", path: "/v1/merchants", response: { parse() {} } },
      /response must be a zod schema/,
    );
    await refused(
      { method: "GET", path: "/v1/merchants", merchantScoped: "yes" },
      /merchantScoped must be a boolean/,
    );
    await refused(
      { method: "POST", path: "/v1/x", idempotency: "never" },
      /idempotency must be "always" or "given"/,
    );
    await refused(null, /must be an object/);
  });

  it("a param value that is not an id, a body that is not JSON, a query value that is not flat: input errors", async () => {
    const c = client();
    for (const call of [
      () => c.request({ method: "GET", path: "/v1/merchants/{id}", params: { id: ".." } }),
      () => c.request({ method: "GET", path: "/v1/merchants/{id}", params: { id: "" } }),
      () => c.request({ method: "POST", path: "/v1/x", body: { amount: 10n } }),
      () => c.request({ method: "POST", path: "/v1/x", body: { when: new Date() } }),
      () => c.request({ method: "POST", path: "/v1/x", body: { price: Number.NaN } }),
      () => c.request({ method: "GET", path: "/v1/x", query: { filter: { a: 1 } as never } }),
    ]) {
      expect(await failure(call)).toBeInstanceOf(InputValidationError);
    }
    const error = (await failure(() =>
      c.request({ method: "POST", path: "/v1/x", body: { items: [{ price: Number.POSITIVE_INFINITY }] } }),
    )) as InputValidationError;
    expect(error.issues[0]?.field).toBe("body.items.0.price");
    expect(recording.requests).toHaveLength(0);
  });
});

describe("a custom operation is sent as the built-in ones are", () => {
  it("fills the template with each param as one encoded segment and encodes the query", async () => {
    await client().request({
      method: "GET",
      path: "/v1/merchants/{merchantId}/orders/{orderId}",
      params: { merchantId: "mrch_1", orderId: "a/b?c#d%" },
      query: { status: "open & paid", limit: 2, archived: false, skipped: undefined },
    });
    const [request] = recording.requests;
    expect(request?.url.pathname).toBe("/v1/merchants/mrch_1/orders/a%2Fb%3Fc%23d%25");
    expect(request?.url.search).toBe("?status=open+%26+paid&limit=2&archived=false");
  });

  it("keys every POST by default and retries it under the same key; a POST keyed only when given is not retried", async () => {
    recording.respond(apiError(503, "unavailable"), json({ id: "refund_1" }));
    const refund = await client().request({
      method: "POST",
      path: "/v1/refunds",
      body: { paymentId: "pay_1" },
    });
    expect(refund).toEqual({ id: "refund_1" });
    const keys = recording.requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(recording.requests.map((r) => r.body)).toEqual(['{"paymentId":"pay_1"}', '{"paymentId":"pay_1"}']);
    expect(recording.requests[0]?.headers.get("content-type")).toBe("application/json");

    recording.requests.length = 0;
    recording.respond(apiError(503, "unavailable"), json({}));
    const unkeyed = client().request({ method: "POST", path: "/v1/refunds", idempotency: "given" });
    expect(await failure(() => unkeyed)).toBeInstanceOf(InternalServerError);
    expect(recording.requests).toHaveLength(1);
    expect(recording.requests[0]?.headers.has("idempotency-key")).toBe(false);
  });

  it("sends PATCH and DELETE; a GET carries no key unless given", async () => {
    await client().request({
      method: "PATCH",
      path: "/v1/merchants/{id}",
      params: { id: "m" },
      body: { name: "N" },
    });
    await client().request({ method: "DELETE", path: "/v1/webhooks/{id}", params: { id: "wh_1" } });
    await client().request({ method: "GET", path: "/v1/merchants" }, { idempotencyKey: "mine" });
    expect(recording.requests.map((r) => [r.method, r.headers.get("idempotency-key")])).toEqual([
      ["PATCH", null],
      ["DELETE", null],
      ["GET", "mine"],
    ]);
  });

  it("adds Merchant-Id when merchantScoped, from the call or the client, and refuses to send without one", async () => {
    const operation = { method: "GET", path: "/v1/payments", merchantScoped: true } as const;
    await client("mrch_default").request(operation);
    await client("mrch_default").request(operation, { merchantId: "mrch_call" });
    await client("mrch_default").request({ method: "GET", path: "/v1/merchants" });
    expect(recording.requests.map((r) => r.headers.get("merchant-id"))).toEqual([
      "mrch_default",
      "mrch_call",
      null,
    ]);
    recording.requests.length = 0;
    const error = await failure(() => client().request(operation));
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).issues[0]?.field).toBe("merchantId");
    expect(recording.requests).toHaveLength(0);
  });
});

describe("a custom operation's answer", () => {
  const refundSchema = z.object({ id: z.string(), amount: z.number() });

  it("is the parsed JSON without a schema, and the schema's output with one; withResponse() works", async () => {
    recording.respond(json({ id: "r_1", amount: 5, note: "x" }, 201, { "request-id": "req_1" }));
    const raw = await client().request({ method: "GET", path: "/v1/refunds/{id}", params: { id: "r_1" } });
    expect(raw).toEqual({ id: "r_1", amount: 5, note: "x" });
    const { data, response } = await client()
      .request({ method: "GET", path: "/v1/refunds/{id}", params: { id: "r_1" }, response: refundSchema })
      .withResponse();
    expect(data).toEqual({ id: "r_1", amount: 5 });
    expect(data._requestId).toBe("req_1");
    expect(response).toMatchObject({ status: 201, requestId: "req_1", idempotentReplayed: false });
  });

  it("is read strictly or tolerantly as the client reads, with drift events", async () => {
    recording.respond(json({ id: "r_1", amount: "5" }));
    const operation = { method: "GET", path: "/v1/refunds/r_1", response: refundSchema } as const;
    const strict = await failure(() => testClient({ responseValidation: "strict" }).request(operation));
    expect(strict).toBeInstanceOf(ResponseValidationError);
    expect((strict as ResponseValidationError).issues).toEqual([
      { path: "amount", message: "must be a number, got a string" },
    ]);
    const drift: DriftEvent[] = [];
    const tolerant = testClient({
      responseValidation: "tolerant",
      hooks: { onDrift: (event) => drift.push(event) },
    });
    expect(await tolerant.request(operation)).toEqual({ id: "r_1", amount: "5" });
    expect(drift).toEqual([
      {
        operation: "GET /v1/refunds/r_1",
        path: "amount",
        expected: "a number",
        received: "a string (1 characters)",
      },
    ]);
  });

  it("is an empty body as undefined (a DELETE's 204)", async () => {
    recording.respond(() => new Response(null, { status: 204 }));
    expect(await client().request({ method: "DELETE", path: "/v1/webhooks/wh_1" })).toBeUndefined();
  });
});

describe("a custom operation against the bundled mock", () => {
  // The mock's own fetch function: it answers every path, the routes it does not serve with its 404.
  const mock = createMockService();
  const sdk = testClient(mock, { fetch: mock.fetch });

  it("gets the mock's 404 for a route it does not serve, as a NotFoundError with the Request-Id", async () => {
    const error = await failure(() =>
      sdk.request({ method: "POST", path: "/v1/refunds", body: { paymentId: "pay_1" } }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: "not_found", method: "POST", path: "/v1/refunds" });
    expect((error as NotFoundError).requestId).toMatch(/^req_/);
  });

  it("reads a served route as the built-in method does", async () => {
    const { merchantId } = mock;
    const custom = await sdk.request({
      method: "GET",
      path: "/v1/merchants/{merchantId}",
      params: { merchantId },
    });
    expect(custom).toEqual({ merchant: await sdk.merchants.retrieve(merchantId) });
  });
});
