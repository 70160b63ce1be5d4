import { describe, expect, it } from "vitest";
import {
  CheckoutReturnError,
  type ClientOptions,
  type CreateCheckoutInput,
  NotFoundError,
  type VerifyReturnParams,
} from "../../src/index.js";
import { failure, refusedBeforeSending } from "../helpers/assertions.js";
import { DEFAULT_MERCHANT_ID as MERCHANT_ID, testClient } from "../helpers/clients.js";
import { final, pending, SUCCEEDED } from "../helpers/fixtures.js";
import { apiError, BASE_URL, json, TEST_KEY, useRecordingServer } from "../helpers/recording-server.js";

const mock = useRecordingServer();
const client = (options: ClientOptions = {}) => testClient({ merchantId: MERCHANT_ID, ...options });
const inputError = (call: () => Promise<unknown>) => refusedBeforeSending(call, mock.requests);

const AMOUNT = { unit: "iso4217/EUR", value: "999" };
const URLS = {
  successUrl: "https://shop.example/orders/1/thanks",
  errorUrl: "https://shop.example/orders/1/oops",
};
const CREATED = { paymentId: "pay_1", gatewayUrl: "https://portal.example/pay/pay_1" };
const STATUS_PATH = "/v1/merchant/payment/pay_1/status";

describe("checkout.create", () => {
  it("POSTs {referenceId, amount, checkout: {successUrl, errorUrl}} and returns paymentId and gatewayUrl", async () => {
    mock.respond(json({ ...CREATED, expiresAt: "2026-02-19T11:00:00.000Z" }));
    const result = await client().checkout.create({ referenceId: "order-1", amount: AMOUNT, ...URLS });
    const [request] = mock.requests;
    expect(request?.method).toBe("POST");
    expect(request?.url.href).toBe(`${BASE_URL}/v1/merchant/payment`);
    expect(request?.headers.get("api-key")).toBe(TEST_KEY);
    expect(request?.headers.get("merchant-id")).toBe(MERCHANT_ID);
    expect(request?.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual({
      referenceId: "order-1",
      amount: AMOUNT,
      checkout: URLS,
    });
    expect(result).toEqual({ ...CREATED, expiresAt: "2026-02-19T11:00:00.000Z" });
  });

  it("accepts redirects: true with both URLs", async () => {
    mock.respond(json(CREATED));
    await client().checkout.create({ referenceId: "order-1", amount: AMOUNT, ...URLS, redirects: true });
    expect(JSON.parse(mock.requests[0]?.body ?? "")).toEqual({
      referenceId: "order-1",
      amount: AMOUNT,
      checkout: URLS,
    });
  });

  it("sends no checkout object with redirects: false", async () => {
    mock.respond(json(CREATED));
    await client().checkout.create({ referenceId: "order-1", amount: AMOUNT, redirects: false });
    const sent = JSON.parse(mock.requests[0]?.body ?? "");
    expect(sent).toEqual({ referenceId: "order-1", amount: AMOUNT });
    expect("checkout" in sent).toBe(false);
  });

  it("keeps a return URL's own query string", async () => {
    mock.respond(json(CREATED));
    const successUrl = "https://shop.example/return?order=1&lang=fr";
    await client().checkout.create({ referenceId: "order-1", amount: AMOUNT, ...URLS, successUrl });
    expect(JSON.parse(mock.requests[0]?.body ?? "").checkout.successUrl).toBe(successUrl);
  });

  const base = { referenceId: "order-1", amount: AMOUNT };
  it.each([
    ["an http successUrl", { ...base, ...URLS, successUrl: "http://shop.example/ok" }, "successUrl"],
    ["an http errorUrl", { ...base, ...URLS, errorUrl: "http://shop.example/ko" }, "errorUrl"],
    [
      "an http loopback successUrl when talking to the real service",
      { ...base, ...URLS, successUrl: "http://localhost:3000/ok" },
      "successUrl",
    ],
    ["a relative successUrl", { ...base, ...URLS, successUrl: "/orders/1/thanks" }, "successUrl"],
    ["a relative errorUrl", { ...base, ...URLS, errorUrl: "orders/1/oops" }, "errorUrl"],
    ["a protocol-relative successUrl", { ...base, ...URLS, successUrl: "//shop.example/ok" }, "successUrl"],
    ["a javascript: successUrl", { ...base, ...URLS, successUrl: "javascript:alert(1)" }, "successUrl"],
    ["a missing successUrl", { ...base, errorUrl: URLS.errorUrl }, "successUrl"],
    ["a missing errorUrl", { ...base, successUrl: URLS.successUrl }, "errorUrl"],
    ["no URLs and no opt-out", { ...base }, "successUrl"],
    ["URLs with redirects: false", { ...base, ...URLS, redirects: false }, "successUrl"],
    ["an errorUrl with redirects: false", { ...base, errorUrl: URLS.errorUrl, redirects: false }, "errorUrl"],
    ["a nested checkout object", { ...base, checkout: URLS }, "successUrl"],
  ])("refuses %s and sends nothing", async (_label, input, field) => {
    const error = await inputError(() => client().checkout.create(input as unknown as CreateCheckoutInput));
    expect(error.field).toBe(field);
  });
});

describe("checkout.status", () => {
  it("GETs /v1/merchant/payment/{paymentId}/status with Api-Key and Merchant-Id", async () => {
    mock.respond(json(SUCCEEDED));
    const result = await client().checkout.status("pay_1", { merchantId: "mrch_2" });
    const [request] = mock.requests;
    expect(request?.method).toBe("GET");
    expect(request?.url.href).toBe(`${BASE_URL}${STATUS_PATH}`);
    expect(request?.headers.get("api-key")).toBe(TEST_KEY);
    expect(request?.headers.get("merchant-id")).toBe("mrch_2");
    expect(result).toEqual(SUCCEEDED);
  });

  it("encodes the payment id", async () => {
    mock.respond(json(pending("processing", 5)));
    await client().checkout.status("pay/1?#");
    expect(mock.requests[0]?.url.pathname).toBe("/v1/merchant/payment/pay%2F1%3F%23/status");
  });

  it.each(["", ".", ".."])("refuses payment id %j", async (id) => {
    expect((await inputError(() => client().checkout.status(id))).field).toBe("paymentId");
  });
});

describe("checkout.verifyReturn", () => {
  const verify = (params: VerifyReturnParams, options?: ClientOptions) =>
    client(options).checkout.verifyReturn(params);

  async function returnError(params: VerifyReturnParams): Promise<CheckoutReturnError> {
    mock.respond(json(SUCCEEDED));
    const error = await failure(() => verify(params));
    expect(error).toBeInstanceOf(CheckoutReturnError);
    expect(mock.requests).toHaveLength(0);
    return error as CheckoutReturnError;
  }

  it("fulfils when payment_id matches and the service says succeeded", async () => {
    mock.respond(json(SUCCEEDED));
    const outcome = await verify({ url: `${URLS.successUrl}?payment_id=pay_1`, expectedPaymentId: "pay_1" });
    expect(outcome).toEqual({ paymentId: "pay_1", status: SUCCEEDED, next: "fulfil", fulfil: true });
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]?.method).toBe("GET");
    expect(mock.requests[0]?.url.pathname).toBe(STATUS_PATH);
    expect(mock.requests[0]?.headers.get("merchant-id")).toBe(MERCHANT_ID);
  });

  it("does not fulfil on the success URL when the service says failed", async () => {
    mock.respond(json(final("failed")));
    const outcome = await verify({ url: `${URLS.successUrl}?payment_id=pay_1`, expectedPaymentId: "pay_1" });
    expect(outcome).toMatchObject({ fulfil: false, next: "show_error" });
  });

  it("fulfils on the error URL when the service says succeeded: the landing URL is ignored", async () => {
    mock.respond(json(SUCCEEDED));
    const outcome = await verify({ url: `${URLS.errorUrl}?payment_id=pay_1`, expectedPaymentId: "pay_1" });
    expect(outcome).toMatchObject({ fulfil: true, next: "fulfil" });
  });

  it.each([
    [final("failed"), "show_error"],
    [final("expired"), "show_expiry"],
    [final("cancelled"), "show_cancelled"],
    [pending("processing", 5), "keep_waiting"],
    [pending("requires_action", 5), "keep_waiting"],
    [pending("on_hold", 5), "keep_waiting"],
  ])("maps %j to next %s without fulfilling", async (status, next) => {
    mock.respond(json(status));
    const outcome = await verify({ url: `${URLS.successUrl}?payment_id=pay_1`, expectedPaymentId: "pay_1" });
    expect(outcome).toEqual({ paymentId: "pay_1", status, next, fulfil: false });
  });

  it("refuses a payment_id that is not the stored one, asking nothing of the service", async () => {
    const error = await returnError({
      url: `${URLS.successUrl}?payment_id=pay_2`,
      expectedPaymentId: "pay_1",
    });
    expect(error.problem).toBe("payment_id_mismatch");
  });

  it.each([
    ["no query", URLS.successUrl],
    ["another parameter", `${URLS.successUrl}?paymentId=pay_1`],
    ["the id only in the fragment", `${URLS.successUrl}#payment_id=pay_1`],
  ])("refuses a return with %s as missing_payment_id", async (_label, url) => {
    const error = await returnError({ url, expectedPaymentId: "pay_1" });
    expect(error.problem).toBe("missing_payment_id");
  });

  it.each([
    ["the same id twice", "?payment_id=pay_1&payment_id=pay_1"],
    ["two different ids", "?payment_id=pay_1&payment_id=pay_2"],
    ["an empty second one", "?payment_id=pay_1&payment_id="],
  ])("refuses %s as duplicated_payment_id", async (_label, query) => {
    const error = await returnError({ url: `${URLS.successUrl}${query}`, expectedPaymentId: "pay_1" });
    expect(error.problem).toBe("duplicated_payment_id");
  });

  it("decodes payment_id exactly once: a double-encoded id is a mismatch", async () => {
    const error = await returnError({
      url: `${URLS.successUrl}?payment_id=pay%255F1`,
      expectedPaymentId: "pay_1",
    });
    expect(error.problem).toBe("payment_id_mismatch");
    mock.respond(json(SUCCEEDED));
    const outcome = await verify({
      url: `${URLS.successUrl}?payment_id=pay%5F1`,
      expectedPaymentId: "pay_1",
    });
    expect(outcome.fulfil).toBe(true);
  });

  it("compares ids exactly (no case folding, no trimming)", async () => {
    expect((await returnError({ url: "/r?payment_id=PAY_1", expectedPaymentId: "pay_1" })).problem).toBe(
      "payment_id_mismatch",
    );
    expect((await returnError({ url: "/r?payment_id=pay_1%20", expectedPaymentId: "pay_1" })).problem).toBe(
      "payment_id_mismatch",
    );
  });

  describe("accepts every form a framework hands over", () => {
    const good: Array<[string, Omit<VerifyReturnParams, "expectedPaymentId">]> = [
      ["an absolute URL string", { url: "https://shop.example/orders/1/return?payment_id=pay_1&x=y" }],
      ["a URL object", { url: new URL("https://shop.example/orders/1/return?payment_id=pay_1") }],
      ["a relative path", { url: "/orders/1/return?payment_id=pay_1" }],
      ["a query string", { query: "payment_id=pay_1&lang=fr" }],
      ["a query string with its ?", { query: "?payment_id=pay_1" }],
      ["URLSearchParams", { query: new URLSearchParams({ payment_id: "pay_1" }) }],
      ["an Express-style object", { query: { payment_id: "pay_1", lang: "fr" } }],
      ["an Express-style object with a one-item array", { query: { payment_id: ["pay_1"] } }],
    ];
    it.each(good)("%s", async (_label, params) => {
      mock.respond(json(SUCCEEDED));
      const outcome = await verify({ ...params, expectedPaymentId: "pay_1" });
      expect(outcome.fulfil).toBe(true);
      expect(mock.requests).toHaveLength(1);
    });

    const bad: Array<[string, Omit<VerifyReturnParams, "expectedPaymentId">, string]> = [
      ["a relative path without the id", { url: "/orders/1/return" }, "missing_payment_id"],
      [
        "a relative path with another id",
        { url: "/orders/1/return?payment_id=pay_9" },
        "payment_id_mismatch",
      ],
      ["an empty query string", { query: "" }, "missing_payment_id"],
      ["a duplicated query string", { query: "payment_id=pay_1&payment_id=pay_1" }, "duplicated_payment_id"],
      [
        "duplicated URLSearchParams",
        {
          query: new URLSearchParams([
            ["payment_id", "pay_1"],
            ["payment_id", "pay_1"],
          ]),
        },
        "duplicated_payment_id",
      ],
      ["an Express-style object without it", { query: { order: "1" } }, "missing_payment_id"],
      ["an Express-style array of two ids", { query: { payment_id: ["a", "b"] } }, "duplicated_payment_id"],
      [
        "an Express-style array of one id twice",
        { query: { payment_id: ["pay_1", "pay_1"] } },
        "duplicated_payment_id",
      ],
      ["an Express-style nested object", { query: { payment_id: { $ne: "x" } } }, "payment_id_mismatch"],
      ["an Express-style number", { query: { payment_id: 1 } }, "payment_id_mismatch"],
    ];
    it.each(bad)("refuses %s", async (_label, params, problem) => {
      const error = await returnError({ ...params, expectedPaymentId: "pay_1" });
      expect(error.problem).toBe(problem);
    });
  });

  it("requires exactly one of url and query", async () => {
    const both = await inputError(() =>
      verify({ url: "/r?payment_id=pay_1", query: "payment_id=pay_1", expectedPaymentId: "pay_1" }),
    );
    expect(both.field).toBe("url");
    const neither = await inputError(() => verify({ expectedPaymentId: "pay_1" }));
    expect(neither.field).toBe("url");
  });

  it.each(["", ".", ".."])("refuses the stored payment id %j", async (expectedPaymentId) => {
    const error = await inputError(() =>
      verify({ url: `/r?payment_id=${expectedPaymentId}`, expectedPaymentId }),
    );
    expect(error.field).toBe("expectedPaymentId");
  });

  it("uses params.merchantId for the status call", async () => {
    mock.respond(json(SUCCEEDED));
    await verify({ url: "/r?payment_id=pay_1", expectedPaymentId: "pay_1", merchantId: "mrch_shop_2" });
    expect(mock.requests[0]?.headers.get("merchant-id")).toBe("mrch_shop_2");
  });

  it("lets a service error through instead of deciding anything", async () => {
    mock.respond(apiError(404, "not_found"));
    const error = await failure(() => verify({ url: "/r?payment_id=pay_1", expectedPaymentId: "pay_1" }));
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it("with wait: true polls the checkout status until final", async () => {
    mock.respond(json(pending("requires_action", 1)), json(pending("processing", 1)), json(SUCCEEDED));
    const outcome = await verify({ url: "/r?payment_id=pay_1", expectedPaymentId: "pay_1", wait: true });
    expect(outcome).toEqual({ paymentId: "pay_1", status: SUCCEEDED, next: "fulfil", fulfil: true });
    expect(mock.requests.map((r) => r.url.pathname)).toEqual([STATUS_PATH, STATUS_PATH, STATUS_PATH]);
  });

  it("with wait options polls with them and reports an expiry", async () => {
    const seen: string[] = [];
    mock.respond(json(pending("processing", 1)), json(final("expired")));
    const outcome = await verify({
      url: "/r?payment_id=pay_1",
      expectedPaymentId: "pay_1",
      merchantId: "mrch_shop_2",
      wait: { minIntervalMs: 0, onUpdate: (s) => seen.push(s.status) },
    });
    expect(outcome).toMatchObject({ next: "show_expiry", fulfil: false });
    expect(seen).toEqual(["processing", "expired"]);
    expect(mock.requests.map((r) => r.headers.get("merchant-id"))).toEqual(["mrch_shop_2", "mrch_shop_2"]);
  });

  it("with wait options honours their merchantId when params.merchantId is not given", async () => {
    mock.respond(json(SUCCEEDED));
    await verify({
      url: "/r?payment_id=pay_1",
      expectedPaymentId: "pay_1",
      wait: { merchantId: "mrch_from_wait" },
    });
    expect(mock.requests[0]?.headers.get("merchant-id")).toBe("mrch_from_wait");
  });
});

describe("verifyReturn fulfils only on status succeeded with isFinal true", () => {
  const tolerant = () => client({ responseValidation: "tolerant" });
  const params = { url: `${URLS.successUrl}?payment_id=pay_1`, expectedPaymentId: "pay_1" };

  it.each([
    ["isFinal false", { ...SUCCEEDED, isFinal: false, pollInMs: 5 }],
    ["isFinal as the string true", { ...SUCCEEDED, isFinal: "true" }],
    ["isFinal 1", { ...SUCCEEDED, isFinal: 1 }],
    ["isFinal missing", { status: "succeeded", pollInMs: null, info: SUCCEEDED.info }],
  ])("succeeded with %s: do not fulfil, keep waiting", async (_label, answer) => {
    mock.respond(json(answer));
    const outcome = await tolerant().checkout.verifyReturn(params);
    expect(outcome.fulfil).toBe(false);
    expect(outcome.next).toBe("keep_waiting");
  });

  it("an unknown status claiming to be final: do not fulfil, keep waiting", async () => {
    mock.respond(json({ status: "paid", isFinal: true, pollInMs: null }));
    const outcome = await tolerant().checkout.verifyReturn(params);
    expect(outcome).toMatchObject({ fulfil: false, next: "keep_waiting" });
  });
});
