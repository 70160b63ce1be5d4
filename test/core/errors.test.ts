/**
 * The errors a newcomer meets first: what they serialise to, `instanceof` across two copies of the package, what an
 * abort by `AbortSignal.timeout` says, and the same hints for a misplaced or misspelt option in every method.
 */
import { describe, expect, it, vi } from "vitest";
import {
  ConfigurationError,
  ConnectionError,
  InputValidationError,
  isMerchantPaymentsError,
  MerchantPaymentsClient,
  MerchantPaymentsError,
  NotFoundError,
  UserAbortError,
} from "../../src/index.js";
import { REQUEST_OPTION_NAMES } from "../../src/core/request-options.js";
import { failure } from "../helpers/assertions.js";
import { testClient } from "../helpers/clients.js";
import { apiError, BASE_URL, json, TEST_KEY, useRecordingServer } from "../helpers/recording-server.js";

const mock = useRecordingServer();
const client = () => testClient({ merchantId: "mrch_1", maxRetries: 0 });

describe("JSON.stringify(error)", () => {
  it("holds the message of an error thrown before anything is sent", () => {
    let thrown: unknown;
    try {
      new MerchantPaymentsClient({ apiKey: TEST_KEY, baseUrl: BASE_URL, timeoutMs: -1 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigurationError);
    const json = JSON.parse(JSON.stringify(thrown));
    expect(json).toMatchObject({ name: "ConfigurationError", message: (thrown as Error).message });
    expect(json.message).toContain("timeoutMs");
  });

  it("holds the message, code, status and request id of a service error, never the key", async () => {
    mock.respond(apiError(404, "not_found", { "request-id": "req_42" }));
    const error = await failure(() => client().payments.status("pay_1"));
    expect(error).toBeInstanceOf(NotFoundError);
    const text = JSON.stringify(error);
    expect(JSON.parse(text)).toMatchObject({
      name: "NotFoundError",
      message: (error as Error).message,
      code: "not_found",
      requestId: "req_42",
      status: 404,
      method: "GET",
      path: "/v1/payments/pay_1/status",
    });
    expect(text).not.toContain(TEST_KEY);
  });
});

describe("instanceof across two copies of the package (ESM and CommonJS side by side)", () => {
  it("recognises an error of the other copy, by its class and its base classes", async () => {
    vi.resetModules();
    const other = await import("../../src/index.js");
    expect(other.ConnectionError).not.toBe(ConnectionError);
    const foreign = new other.TimeoutError({ method: "GET", path: "/v1/x" }, 5);
    expect(foreign instanceof MerchantPaymentsError).toBe(true);
    expect(foreign instanceof ConnectionError).toBe(true);
    expect(foreign instanceof NotFoundError).toBe(false);
    expect(isMerchantPaymentsError(foreign)).toBe(true);
    expect(new other.ConfigurationError("x") instanceof ConfigurationError).toBe(true);
  });

  it("recognises nothing else", () => {
    const lookalike = Object.assign(new Error("x"), { name: "ConnectionError" });
    expect(lookalike instanceof ConnectionError).toBe(false);
    // A class of the right name carrying the package's brand is not one of its classes either.
    class ConnectionErrorLike extends Error {}
    Object.defineProperty(ConnectionErrorLike, "name", { value: "ConnectionError" });
    Object.defineProperty(ConnectionErrorLike.prototype, Symbol.for("merchant-payments.error"), {
      value: true,
    });
    expect(new ConnectionErrorLike("x") instanceof ConnectionError).toBe(false);
    expect(new ConnectionErrorLike("x") instanceof NotFoundError).toBe(false);
    expect(isMerchantPaymentsError(lookalike)).toBe(false);
    expect(isMerchantPaymentsError(null)).toBe(false);
  });
});

describe("an abort by AbortSignal.timeout", () => {
  it("says it was a timeout in the message, not only in the cause", async () => {
    const signal = AbortSignal.timeout(1);
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    const error = await failure(() => client().payments.status("pay_1", { signal }));
    expect(error).toBeInstanceOf(UserAbortError);
    expect((error as Error).message).toMatch(/timed out/);
  });

  it("an abort by the caller's own controller still says only that it was aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(() => client().payments.status("pay_1", { signal: controller.signal }));
    expect((error as Error).message).not.toMatch(/timed out/);
  });
});

describe("the same hints in every method", () => {
  const hintOf = async (call: () => Promise<unknown>) => {
    const error = await failure(call);
    expect(error).toBeInstanceOf(InputValidationError);
    expect(mock.requests).toHaveLength(0);
    return (error as Error).message;
  };

  it("a request option inside a query or an input says where it goes", async () => {
    const signal = new AbortController().signal;
    const list = await hintOf(() => client().merchants.list({ signal } as never));
    expect(list).toContain("is a request option: pass it as the second argument");
    const fetch = await hintOf(() => client().gateway.fetchAction("pay_1", { merchantId: "m" } as never));
    expect(fetch).toContain("is a request option: pass it as the third argument");
    expect(fetch).toContain("gateway.fetchAction(paymentId, input, { merchantId })");
    const create = await hintOf(() =>
      client().payments.create({ timeoutMs: 5 } as never, { idempotencyKey: "k" }),
    );
    expect(create).toContain("is a request option");
  });

  it.each(REQUEST_OPTION_NAMES.map((name) => [name]))(
    "%s inside a create's input is refused as a request option, whatever else the input holds",
    async (name) => {
      const input = { referenceId: "order-1", amount: { unit: "iso4217/USD", value: "1" }, [name]: 1 };
      const hint = await hintOf(() => client().payments.create(input as never));
      expect(hint).toContain(`input.${name} is a request option: pass it as the second argument`);
    },
  );

  it("`retries` is advised to be maxRetries, per call and on the client", async () => {
    const perCall = await hintOf(() => client().payments.status("pay_1", { retries: 1 } as never));
    expect(perCall).toContain("did you mean maxRetries?");
    expect(() => testClient({ retries: 1 } as never)).toThrow(/did you mean maxRetries\?/);
  });
});

describe("every failure is one of the SDK's classes", () => {
  it.each([
    ["no status", { isFinal: false, pollInMs: 5 }],
    ["a status that is an object", { status: { value: "succeeded" }, isFinal: true }],
    ["a body that is not an object", null],
  ])("waitForFinal on a status answer with %s, read tolerantly", async (_label, body) => {
    mock.respond(json(body as never));
    const tolerant = testClient({ merchantId: "mrch_1", maxRetries: 0, responseValidation: "tolerant" });
    const error = await failure(() =>
      tolerant.payments.waitForFinal("pay_1", { maxWaitMs: 50, minIntervalMs: 1, defaultIntervalMs: 1 }),
    );
    expect(isMerchantPaymentsError(error)).toBe(true);
  });

  it("verifyReturn with a null query is an input error", async () => {
    const error = await failure(() =>
      client().checkout.verifyReturn({ query: null as never, expectedPaymentId: "pay_1" }),
    );
    expect(error).toBeInstanceOf(InputValidationError);
    expect(mock.requests).toHaveLength(0);
  });

  it("a fetch that throws something other than a network failure is still a MerchantPaymentsError", async () => {
    const broken = testClient({
      maxRetries: 0,
      fetch: (() => {
        throw new RangeError(`broken runtime near ${TEST_KEY}`);
      }) as typeof fetch,
    });
    const error = await failure(() => broken.merchants.retrieve("mrch_1"));
    expect(isMerchantPaymentsError(error)).toBe(true);
    expect(JSON.stringify(error) + String((error as Error).stack)).not.toContain(TEST_KEY);
  });
});

describe("verifyReturn's params take the same hints", () => {
  const params = { url: "/ok?payment_id=pay_1", expectedPaymentId: "pay_1" };

  it("a request option among the params says it goes in the second argument", async () => {
    const error = await failure(() => client().checkout.verifyReturn({ ...params, timeoutMs: 5 } as never));
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as Error).message).toContain("checkout.verifyReturn(params, { timeoutMs })");
    expect(mock.requests).toHaveLength(0);
  });

  it("a misspelt param gets the nearest name", async () => {
    const error = await failure(() =>
      client().checkout.verifyReturn({ ...params, expectedPaymentID: "x" } as never),
    );
    expect((error as Error).message).toContain("did you mean expectedPaymentId?");
  });
});
