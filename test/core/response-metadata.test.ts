/**
 * Response metadata: every result carries its request id without it reaching JSON, and every request
 * method's promise offers `.withResponse()` with the status, the headers (credentials removed), the request id and
 * whether the service replayed an idempotent answer.
 */
import { describe, expect, it } from "vitest";
import { APIPromise, REQUEST_ID_HEADERS } from "../../src/index.js";
import { testClient } from "../helpers/clients.js";
import { CANCELLED, CREATED_MERCHANT, MERCHANT, pending } from "../helpers/fixtures.js";
import { json, TEST_KEY, useRecordingServer } from "../helpers/recording-server.js";

const mock = useRecordingServer();
const client = () => testClient({ merchantId: "mrch_1" });
const HEADERS = { "Request-Id": "req_42" };

describe("the request id on results", () => {
  it("is on the result as _requestId, and in neither JSON.stringify, Object.keys nor a spread copy", async () => {
    mock.respond(json(pending("processing", 5), 200, HEADERS));
    const status = await client().payments.status("pay_1");
    expect(status._requestId).toBe("req_42");
    expect(JSON.parse(JSON.stringify(status))).toEqual(pending("processing", 5));
    expect(Object.keys(status)).not.toContain("_requestId");
    expect({ ...status }).not.toHaveProperty("_requestId");
  });

  it("is on unwrapped results too (merchants.retrieve returns the inner merchant)", async () => {
    mock.respond(json({ merchant: MERCHANT }, 200, { "X-Request-Id": "req_x" }));
    const merchant = await client().merchants.retrieve("mrch_1");
    expect(merchant._requestId).toBe("req_x");
    expect(merchant).toEqual(MERCHANT);
  });

  it("is undefined when the answer carries none", async () => {
    mock.respond(json(CANCELLED));
    const cancelled = await client().payments.cancel("pay_1");
    expect(cancelled._requestId).toBeUndefined();
  });

  it.each([
    ["the node:http wire", undefined],
    ["a fetch of the caller's", (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init)],
  ])("is a repeated header's values joined as Headers.get joins them, through %s", async (_, fetch) => {
    const repeated = new Headers([
      ["request-id", "req_a"],
      ["request-id", "req_b"],
    ]);
    mock.respond(json(pending("processing", 5), 200, repeated));
    const status = await testClient({ merchantId: "mrch_1", fetch }).payments.status("pay_1");
    expect(status._requestId).toBe("req_a, req_b");
  });

  it("is read from one documented list of header names", () => {
    expect(REQUEST_ID_HEADERS).toEqual(["request-id", "x-request-id"]);
  });
});

describe(".withResponse()", () => {
  it("gives the data and the status, headers and request id of the answer", async () => {
    mock.respond(json(CREATED_MERCHANT, 201, { ...HEADERS, "X-RateLimit-Remaining": "9" }));
    const promise = client().merchants.create({ name: "Shop", email: "billing@shop.example" });
    expect(promise).toBeInstanceOf(APIPromise);
    expect(promise).toBeInstanceOf(Promise);
    const { data, response } = await promise.withResponse();
    expect(data).toEqual(CREATED_MERCHANT.merchant);
    expect(response.status).toBe(201);
    expect(response.requestId).toBe("req_42");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("9");
    expect(response.idempotentReplayed).toBe(false);
  });

  it("never shows credential or cookie headers, nor the key in any other header", async () => {
    mock.respond(
      json(pending("processing", 5), 200, {
        "Api-Key": TEST_KEY,
        "Set-Cookie": "session=abc",
        "X-Echo": `key=${TEST_KEY}`,
      }),
    );
    const { response } = await client().payments.status("pay_1").withResponse();
    expect(response.headers.has("api-key")).toBe(false);
    expect(response.headers.has("set-cookie")).toBe(false);
    expect(response.headers.get("x-echo")).toBe("key=[redacted]");
  });

  it("rejects like the promise when the call fails, and the promise alone still works", async () => {
    mock.respond(json({ code: "not_found", message: "no" }, 404));
    await expect(client().payments.status("pay_1").withResponse()).rejects.toMatchObject({ status: 404 });
    mock.respond(json(pending("processing", 5)));
    const status = await client().payments.status("pay_1");
    expect(status.status).toBe("processing");
  });

  it("is a Promise in every other respect: then without handlers, catch, finally, and awaited twice", async () => {
    mock.respond(json(pending("processing", 5), 200, HEADERS));
    const promise = client().payments.status("pay_1");
    const passed = await promise.then();
    const seen: unknown[] = [];
    const caught = await promise.catch(() => "never").finally(() => seen.push("finally"));
    expect(caught).toBe(passed);
    expect(await promise).toBe(passed);
    expect(passed._requestId).toBe("req_42");
    expect(seen).toEqual(["finally"]);
    mock.respond(json({ code: "not_found", message: "no" }, 404));
    const failed = client().payments.status("pay_2");
    await expect(failed.then((status) => status.status)).rejects.toMatchObject({ status: 404 });
    expect(await failed.catch((error: { status: number }) => error.status)).toBe(404);
  });

  it("exists on every request method's promise", () => {
    const sdk = client();
    const promises = [
      sdk.merchants.list(),
      sdk.merchants.create({ name: "Shop", email: "billing@shop.example" }),
      sdk.merchants.retrieve("mrch_1"),
      sdk.settlements.list("mrch_1"),
      sdk.payments.status("pay_1"),
      sdk.payments.cancel("pay_1"),
      sdk.checkout.status("pay_1"),
      sdk.gateway.fetchAction("pay_1"),
    ];
    for (const promise of promises) {
      expect(typeof promise.withResponse).toBe("function");
      promise.catch(() => {});
    }
  });
});
