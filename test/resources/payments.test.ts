import { describe, expect, it } from "vitest";
import {
  type ClientOptions,
  type CreatePaymentInput,
  type MerchantPaymentsClient,
  NotFoundError,
  ResponseValidationError,
} from "../../src/index.js";
import { failure, refusedBeforeSending } from "../helpers/assertions.js";
import { DEFAULT_MERCHANT_ID as MERCHANT_ID, testClient } from "../helpers/clients.js";
import { CANCELLED, SUCCEEDED, USDC_BASE } from "../helpers/fixtures.js";
import { apiError, BASE_URL, json, useRecordingServer } from "../helpers/recording-server.js";

const mock = useRecordingServer();
const client = (options: ClientOptions = {}) => testClient({ merchantId: MERCHANT_ID, ...options });
const inputError = (call: () => Promise<unknown>) => refusedBeforeSending(call, mock.requests);

const AMOUNT = { unit: "iso4217/USD", value: "1050" };

describe("payments.create", () => {
  it("POSTs {referenceId, amount} to /v1/payments, keeps every field of the answer and names its wallet link `link`", async () => {
    const answer = { id: "pay_1", walletLink: "ethereum:pay?x=1", qr: { format: "png" }, expiresAt: "later" };
    mock.respond(json(answer));
    const result = await client().payments.create({ referenceId: "order-1", amount: AMOUNT });
    const [request] = mock.requests;
    expect(request?.method).toBe("POST");
    expect(request?.url.href).toBe(`${BASE_URL}/v1/payments`);
    expect(request?.headers.get("merchant-id")).toBe(MERCHANT_ID);
    expect(JSON.parse(request?.body ?? "")).toEqual({ referenceId: "order-1", amount: AMOUNT });
    expect(result).toEqual({ ...answer, link: "ethereum:pay?x=1" });
  });

  it("sends the referenceId as given", async () => {
    mock.respond(json({ id: "pay_1", link: "https://wallet.example/pay/pay_1" }));
    await client().payments.create({
      referenceId: "  Order #1/é  ",
      amount: { unit: "iso4217/JPY", value: "1" },
    });
    expect(JSON.parse(mock.requests[0]?.body ?? "")).toEqual({
      referenceId: "  Order #1/é  ",
      amount: { unit: "iso4217/JPY", value: "1" },
    });
  });

  it("refuses an answer without an id", async () => {
    mock.respond(json({ link: "x" }));
    const error = await failure(() => client().payments.create({ referenceId: "o", amount: AMOUNT }));
    expect(error).toBeInstanceOf(ResponseValidationError);
  });
});

describe("amount rules (payments.create and checkout.create)", () => {
  const URLS = { successUrl: "https://shop.example/ok", errorUrl: "https://shop.example/ko" };
  const create = {
    "payments.create": (amount: unknown) =>
      client().payments.create({ referenceId: "order-1", amount } as unknown as CreatePaymentInput),
    "checkout.create": (amount: unknown) =>
      client().checkout.create({ referenceId: "order-1", amount, ...URLS } as unknown as Parameters<
        MerchantPaymentsClient["checkout"]["create"]
      >[0]),
  };

  describe.each(Object.entries(create))("%s", (_name, send) => {
    it.each([
      ["USD", { unit: "iso4217/USD", value: "1050" }],
      ["JPY", { unit: "iso4217/JPY", value: "1000" }],
      ["a huge value", { unit: "iso4217/USD", value: "123456789012345678901234567890" }],
    ])("accepts %s", async (_label, amount) => {
      mock.respond(json({ id: "pay_1", paymentId: "pay_1", gatewayUrl: "https://portal.example/pay_1" }));
      await send(amount);
      expect(JSON.parse(mock.requests[0]?.body ?? "").amount).toEqual(amount);
    });

    it.each([
      ["a number value", 1050, "amount.value"],
      ["a bigint value", 1050n, "amount.value"],
      ['"-1"', "-1", "amount.value"],
      ['"1.5"', "1.5", "amount.value"],
      ['"1e3"', "1e3", "amount.value"],
      ['"007"', "007", "amount.value"],
      ['" 1"', " 1", "amount.value"],
      ['"1 "', "1 ", "amount.value"],
      ['"0x10"', "0x10", "amount.value"],
      ["an empty value", "", "amount.value"],
      ["zero (the mock refuses a payment of nothing: one rule, validate/rules.ts)", "0", "amount.value"],
      ["31 digits", "1".repeat(31), "amount.value"],
    ])("refuses %s on amount.value and sends nothing", async (_label, value, field) => {
      const error = await inputError(() => send({ unit: "iso4217/USD", value }));
      expect(error.field).toBe(field);
      expect(error.message).toContain("amount.value");
    });

    it.each([
      ["usd"],
      ["USD"],
      ["iso4217/usd"],
      ["iso4217/USDT"],
      ["iso4217/US"],
      ["iso4217:USD"],
      [`caip19/${USDC_BASE}`],
      [""],
    ])("refuses unit %j on amount.unit and sends nothing", async (unit) => {
      const error = await inputError(() => send({ unit, value: "1050" }));
      expect(error.field).toBe("amount.unit");
    });

    it.each([
      [undefined, "amount"],
      ["10.50 USD", "amount"],
      [{ value: "1050" }, "amount.unit"],
      [{ unit: "iso4217/USD" }, "amount.value"],
      [{ unit: "iso4217/USD", value: "1050", currency: "USD" }, "amount.currency"],
    ])("refuses amount %j on %s", async (amount, field) => {
      const error = await inputError(() => send(amount));
      expect(error.field).toBe(field);
    });
  });

  it("refuses a missing or blank referenceId", async () => {
    for (const referenceId of [undefined, "", "   ", 12]) {
      const error = await inputError(() =>
        client().payments.create({ referenceId, amount: AMOUNT } as unknown as CreatePaymentInput),
      );
      expect(error.field).toBe("referenceId");
    }
  });
});

describe("payments.status", () => {
  it("GETs /v1/payments/{id}/status and returns the result", async () => {
    mock.respond(json({ status: "requires_action", isFinal: false, pollInMs: 2000 }));
    const result = await client().payments.status("pay_1");
    const [request] = mock.requests;
    expect(request?.method).toBe("GET");
    expect(request?.url.href).toBe(`${BASE_URL}/v1/payments/pay_1/status`);
    expect(result).toEqual({ status: "requires_action", isFinal: false, pollInMs: 2000 });
  });

  it("returns a succeeded result with its info", async () => {
    mock.respond(json(SUCCEEDED));
    expect(await client().payments.status("pay_1")).toEqual(SUCCEEDED);
  });

  it.each(["failed", "expired", "cancelled"])(
    "accepts the final status %s with pollInMs null or absent",
    async (status) => {
      mock.respond(json({ status, isFinal: true, pollInMs: null }), json({ status, isFinal: true }));
      expect((await client().payments.status("pay_1")).status).toBe(status);
      expect((await client().payments.status("pay_1")).isFinal).toBe(true);
    },
  );

  it("keeps fields the SDK does not know, at the top and inside info", async () => {
    const answer = {
      ...SUCCEEDED,
      info: { ...SUCCEEDED.info, blockNumber: 123, payer: "0xabc" },
      source: "push",
      riskScore: 0.1,
    };
    mock.respond(json(answer));
    expect(await client().payments.status("pay_1")).toEqual(answer);
  });

  it('parses an unknown non-final status such as "on_hold"', async () => {
    mock.respond(json({ status: "on_hold", isFinal: false, pollInMs: 5000 }));
    const result = await client().payments.status("pay_1");
    expect(result).toEqual({ status: "on_hold", isFinal: false, pollInMs: 5000 });
  });

  it.each([
    [
      "an unknown status claiming to be final",
      { status: "on_hold", isFinal: true, pollInMs: null },
      "isFinal",
    ],
    ["isFinal true with a polling hint", { ...SUCCEEDED, pollInMs: 1000 }, "pollInMs"],
    ["succeeded with isFinal false", { ...SUCCEEDED, isFinal: false, pollInMs: 1000 }, "isFinal"],
    ["failed with isFinal false", { status: "failed", isFinal: false, pollInMs: 1000 }, "isFinal"],
    ["processing with isFinal true", { status: "processing", isFinal: true, pollInMs: null }, "isFinal"],
    ["a missing isFinal", { status: "processing", pollInMs: 1000 }, "isFinal"],
    ["a string isFinal", { status: "processing", isFinal: "false", pollInMs: 1000 }, "isFinal"],
    ["a negative pollInMs", { status: "processing", isFinal: false, pollInMs: -1 }, "pollInMs"],
    ["a fractional pollInMs", { status: "processing", isFinal: false, pollInMs: 1.5 }, "pollInMs"],
    ["a numeric status", { status: 3, isFinal: false, pollInMs: 1000 }, "status"],
    ["succeeded without info", { status: "succeeded", isFinal: true, pollInMs: null }, "info.txId"],
  ])("refuses %s as a ResponseValidationError keeping the raw body", async (_label, answer, path) => {
    mock.respond(json(answer));
    const error = await failure(() => client().payments.status("pay_1"));
    expect(error).toBeInstanceOf(ResponseValidationError);
    const { rawBody, issues, status } = error as ResponseValidationError;
    expect(rawBody).toEqual(answer);
    expect(status).toBe(200);
    expect(issues.map((issue) => issue.path)).toContain(path);
  });

  it("maps 404 to NotFoundError", async () => {
    mock.respond(apiError(404, "not_found"));
    const error = await failure(() => client().payments.status("pay_missing"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ path: "/v1/payments/pay_missing/status", method: "GET" });
  });
});

describe("payments.cancel", () => {
  it("POSTs to /v1/payments/{id}/cancel without a body and returns the cancellation", async () => {
    const answer = CANCELLED;
    mock.respond(json(answer));
    const result = await client().payments.cancel("pay_1");
    const [request] = mock.requests;
    expect(request?.method).toBe("POST");
    expect(request?.url.href).toBe(`${BASE_URL}/v1/payments/pay_1/cancel`);
    expect(request?.body).toBe("");
    expect(request?.headers.has("content-type")).toBe(false);
    expect(request?.headers.get("merchant-id")).toBe(MERCHANT_ID);
    expect(result).toEqual(answer);
  });

  it("keeps an unknown cancellation reason and extra fields", async () => {
    const answer = { ...CANCELLED, cancelledReason: "cancelled_by_fraud_check", refund: null };
    mock.respond(json(answer));
    expect(await client().payments.cancel("pay_1")).toEqual(answer);
  });

  it("refuses an answer without paymentId", async () => {
    mock.respond(json({ cancelledAt: "x", cancelledReason: "cancelled_by_merchant", status: "cancelled" }));
    expect(await failure(() => client().payments.cancel("pay_1"))).toBeInstanceOf(ResponseValidationError);
  });
});

describe("payment ids in paths", () => {
  const calls = {
    "payments.status": (id: string) => client().payments.status(id),
    "payments.cancel": (id: string) => client().payments.cancel(id),
  };

  describe.each(Object.entries(calls))("%s", (_name, call) => {
    it.each(["", ".", "..", " pay_1", "pay\n1"])("refuses %j on paymentId and sends nothing", async (id) => {
      const error = await inputError(() => call(id));
      expect(error.field).toBe("paymentId");
    });

    it("encodes / ? # % so the id stays one path segment", async () => {
      mock.respond(json({}));
      // The answer does not matter here (it may not match the schema): only the path sent does.
      await call("pay/1?x=2#frag%").catch(() => undefined);
      const url = mock.requests[0]?.url;
      expect(url?.pathname).toMatch(/^\/v1\/payments\/pay%2F1%3Fx%3D2%23frag%25\/(status|cancel)$/);
      expect(url?.search).toBe("");
      expect(url?.hash).toBe("");
    });
  });
});
