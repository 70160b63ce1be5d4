/**
 * Per-call inputs: options, params and extra headers are checked before anything is sent, with typed
 * errors that name the field (and the option meant, when a name is misspelt or misplaced).
 */
import { delay, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import type { InputValidationError, MerchantPaymentsClient, RequestOptions } from "../../src/index.js";
import { refusedBeforeSending } from "../helpers/assertions.js";
import { testClient } from "../helpers/clients.js";
import { pending, SUCCEEDED } from "../helpers/fixtures.js";
import { json, useRecordingServer } from "../helpers/recording-server.js";
import { onFakeTime, trackCalls } from "../helpers/time.js";

const mock = useRecordingServer();
const client = () => testClient({ merchantId: "mrch_1", versionHeader: "Acme-Version" });
const status = (options: unknown) => client().payments.status("pay_1", options as RequestOptions);

describe("extra headers", () => {
  it.each([
    ["a string", "x", "options.headers"],
    ["an array", [["x-a", "1"]], "options.headers"],
    ["a Headers object", new Headers({ "x-a": "1" }), "options.headers"],
    ["a name with a space", { "x a": "1" }, "options.headers.x a"],
    ["a name with a colon", { "x-a:": "1" }, "options.headers.x-a:"],
    ["a value with a line break", { "x-a": "1\r\nx-b: 2" }, "options.headers.x-a"],
    ["a value that is not Latin-1", { "x-a": "€" }, "options.headers.x-a"],
    ["a value that is not a string", { "x-a": 1 }, "options.headers.x-a"],
    ["Content-Length", { "Content-Length": "0" }, "options.headers.Content-Length"],
    ["Host", { Host: "evil.example" }, "options.headers.Host"],
    ["Transfer-Encoding", { "transfer-encoding": "chunked" }, "options.headers.transfer-encoding"],
    ["Api-Key", { "API-KEY": "other" }, "options.headers.API-KEY"],
    ["Idempotency-Key", { "Idempotency-Key": "k2" }, "options.headers.Idempotency-Key"],
    ["Merchant-Id", { "merchant-id": "mrch_2" }, "options.headers.merchant-id"],
    ["the version header", { "acme-version": "2026-01-01" }, "options.headers.acme-version"],
  ])("%s is refused before sending, naming it", async (_label, headers, field) => {
    const error = await refusedBeforeSending(() => status({ headers }), mock.requests);
    expect(error.field).toBe(field);
  });
});

describe("options and params", () => {
  it.each([
    ["null", null],
    ["a string", "fast"],
    ["an array", []],
  ])("options that are %s are refused before sending", async (_label, options) => {
    const error = await refusedBeforeSending(() => status(options), mock.requests);
    expect(error.field).toBe("options");
  });

  it.each([
    ["timeoutMS", "timeoutMs"],
    ["timeout", "timeoutMs"],
    ["maxRetrys", "maxRetries"],
    ["idempotency_key", "idempotencyKey"],
  ])("an unknown option %s is refused, naming %s", async (name, meant) => {
    const error = await refusedBeforeSending(() => status({ [name]: 5 }), mock.requests);
    expect(error.field).toBe(`options.${name}`);
    expect(error.message).toContain(`did you mean ${meant}?`);
  });

  it.each<[string, (c: MerchantPaymentsClient) => Promise<unknown>]>([
    ["payments.create(null)", (c) => c.payments.create(null as never)],
    ["payments.create('x')", (c) => c.payments.create("x" as never)],
    ["merchants.create(null)", (c) => c.merchants.create(null as never)],
    ["checkout.create(null)", (c) => c.checkout.create(null as never)],
    ["settlements.createCrypto(id, null)", (c) => c.settlements.createCrypto("mrch_1", null as never)],
    [
      "settlements.updateCrypto(id, id, null)",
      (c) => c.settlements.updateCrypto("mrch_1", "crypto_1", null as never),
    ],
    ["gateway.fetchAction(id, 'x')", (c) => c.gateway.fetchAction("pay_1", "x" as never)],
    ["merchants.list('x')", (c) => c.merchants.list("x" as never)],
    ["checkout.verifyReturn(null)", (c) => c.checkout.verifyReturn(null as never)],
    ["checkout.verifyReturn('x')", (c) => c.checkout.verifyReturn("x" as never)],
    ["payments.waitForFinal(id, null)", (c) => c.payments.waitForFinal("pay_1", null as never)],
  ])("%s is a typed error before sending", async (_label, call) => {
    await refusedBeforeSending(() => call(client()), mock.requests);
  });

  it("a bad input rejects the returned promise instead of throwing synchronously", async () => {
    let promise: Promise<unknown> | undefined;
    expect(() => {
      promise = client().payments.status("");
    }).not.toThrow();
    await expect(promise).rejects.toMatchObject({ name: "InputValidationError", field: "paymentId" });
  });
});

describe("merchants.list query", () => {
  it("a request option passed as the query is refused with advice", async () => {
    const error: InputValidationError = await refusedBeforeSending(
      () => client().merchants.list({ timeoutMs: 5 }),
      mock.requests,
    );
    expect(error.field).toBe("query.timeoutMs");
    expect(error.message).toContain("second argument");
  });

  it("stays open: any other parameter is sent", async () => {
    mock.respond(json({ data: [] }));
    await client().merchants.list({ page: 2, status: "active", timeout: "x" });
    expect(mock.requests[0]?.url.search).toBe("?page=2&status=active&timeout=x");
  });
});

describe("polling and verifyReturn take the request options", () => {
  it("waitForFinal gives timeoutMs to each status call, and keeps maxWaitMs for the whole wait", async () => {
    mock.respond(async () => {
      await delay("infinite");
      return HttpResponse.json({});
    }, json(SUCCEEDED));
    // With the client's 30 s per attempt, the first poll would outlast the test (fake time: 300 ms pass at once).
    const payments = trackCalls(client().payments, "status");
    const final = await onFakeTime(() =>
      payments.waitForFinal("pay_1", {
        timeoutMs: 300,
        maxRetries: 0,
        maxWaitMs: 60_000,
        minIntervalMs: 0,
        defaultIntervalMs: 1,
      }),
    );
    expect(final.status).toBe("succeeded");
    expect(mock.requests).toHaveLength(2);
  });

  it("watch sends the extra headers on every poll", async () => {
    mock.respond(json(pending("processing", 1)), json(SUCCEEDED));
    const seen: string[] = [];
    for await (const s of client().payments.watch("pay_1", {
      headers: { "X-Trace": "t-1" },
      minIntervalMs: 0,
    })) {
      seen.push(s.status);
    }
    expect(seen).toEqual(["processing", "succeeded"]);
    expect(mock.requests.map((r) => r.headers.get("x-trace"))).toEqual(["t-1", "t-1"]);
  });

  it("an unknown polling option is refused, naming the one meant", async () => {
    const error = await refusedBeforeSending(
      () => client().payments.waitForFinal("pay_1", { maxWait: 5 } as never),
      mock.requests,
    );
    expect(error.message).toContain("did you mean maxWaitMs?");
  });

  it("verifyReturn sends its request options with the status call", async () => {
    mock.respond(json(SUCCEEDED));
    const outcome = await client().checkout.verifyReturn(
      { url: "https://shop.example/ok?payment_id=pay_1", expectedPaymentId: "pay_1" },
      { headers: { "X-Trace": "t-2" }, merchantId: "mrch_2" },
    );
    expect(outcome.fulfil).toBe(true);
    expect(mock.requests[0]?.headers.get("x-trace")).toBe("t-2");
    expect(mock.requests[0]?.headers.get("merchant-id")).toBe("mrch_2");
  });
});
