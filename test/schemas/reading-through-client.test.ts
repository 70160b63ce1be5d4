/**
 * The reading modes and result shapes through the public client, as a merchant meets them: a tolerant client returns
 * the measured answers and reports drift events; a strict one refuses them; results relay cleanly as JSON.
 */
import { describe, expect, it } from "vitest";
import {
  type DriftEvent,
  isFulfillable,
  isWalletRpcAction,
  MerchantPaymentsClient,
  type ResponseValidation,
  ResponseValidationError,
  unknownField,
} from "../../src/index.js";
import { MERCHANT, usdcOnBaseTypedData } from "../helpers/fixtures.js";

const SECRET_KEY = "mp_test_reading0123456789";

function clientAnswering(body: unknown, responseValidation: ResponseValidation) {
  const drift: DriftEvent[] = [];
  const client = new MerchantPaymentsClient({
    apiKey: SECRET_KEY,
    baseUrl: "https://api.merchant-payments.test",
    merchantId: "mrch_1",
    maxRetries: 0,
    responseValidation,
    hooks: { onDrift: (event) => drift.push(event) },
    fetch: async () =>
      new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } }),
  });
  return { client, drift };
}

const succeededWithHint = {
  status: "succeeded",
  isFinal: true,
  pollInMs: 2000,
  info: { txId: "test:pay_1", optionAmount: { unit: "caip19/eip155:8453/erc20:0xabc", value: "1050000" } },
};

describe("payments.status on a succeeded answer that still carries a polling hint", () => {
  it("tolerant: resolves with the success and one drift event naming the operation and field", async () => {
    const { client, drift } = clientAnswering(succeededWithHint, "tolerant");
    const status = await client.payments.status("pay_1");
    expect(isFulfillable(status)).toBe(true);
    expect(drift).toEqual([
      {
        operation: "GET /v1/payments/pay_1/status",
        path: "pollInMs",
        expected: "null when isFinal is true",
        received: "2000",
      },
    ]);
  });

  it("tolerant: hooks hear every drifting answer, the log hears each operation and field once", async () => {
    const logged: unknown[] = [];
    const drift: DriftEvent[] = [];
    const client = new MerchantPaymentsClient({
      apiKey: SECRET_KEY,
      baseUrl: "https://api.merchant-payments.test",
      merchantId: "mrch_1",
      responseValidation: "tolerant",
      logger: { warn: (record) => logged.push(record) },
      hooks: { onDrift: (event) => drift.push(event) },
      fetch: async () => new Response(JSON.stringify(succeededWithHint), { status: 200 }),
    });
    for (const id of ["pay_1", "pay_2", "pay_3"]) await client.payments.status(id);
    expect(drift.map((event) => event.operation)).toEqual([
      "GET /v1/payments/pay_1/status",
      "GET /v1/payments/pay_2/status",
      "GET /v1/payments/pay_3/status",
    ]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ path: "pollInMs", operation: "GET /v1/payments/pay_1/status" });
  });

  it("strict: a ResponseValidationError, no drift event", async () => {
    const { client, drift } = clientAnswering(succeededWithHint, "strict");
    await expect(client.payments.status("pay_1")).rejects.toBeInstanceOf(ResponseValidationError);
    expect(drift).toEqual([]);
  });
});

describe("payments.create", () => {
  it("reads an answer naming the id paymentId, with the link in paymentLink, in strict mode too", async () => {
    const link = "https://pay.example/p/pay_9";
    const { client, drift } = clientAnswering({ paymentId: "pay_9", paymentLink: link }, "strict");
    const payment = await client.payments.create({
      referenceId: "order-1",
      amount: { unit: "iso4217/USD", value: "1050" },
    });
    expect(payment.id).toBe("pay_9");
    expect(payment.link).toBe(link);
    expect(drift).toEqual([]);
  });
});

describe("merchants.retrieve with one settlement item missing its id", () => {
  it("tolerant: the merchant is usable, the drift is on that item only", async () => {
    const { client, drift } = clientAnswering(
      {
        merchant: {
          ...MERCHANT,
          settlements: { crypto: [{ asset: "eip155:1/slip44:60", destination: "eip155:1:0xab" }], fiat: [] },
          tier: "gold",
        },
      },
      "tolerant",
    );
    const merchant = await client.merchants.retrieve("mrch_1");
    expect([merchant.name, merchant.status]).toEqual([MERCHANT.name, "active"]);
    expect(unknownField(merchant, "tier")).toBe("gold");
    expect(drift.map((event) => event.path)).toEqual(["merchant.settlements.crypto.0.id"]);
  });
});

describe("gateway.fetchAction results survive JSON.stringify (Express's res.json)", () => {
  it("gives the actions as the service sent them; the bigint view stays on the object", async () => {
    const typedData = usdcOnBaseTypedData({
      from: "0x1111111111111111111111111111111111111111",
      to: "0x2222222222222222222222222222222222222222",
      validBefore: 0x6995c0c0,
      nonce: `0x${"ab".repeat(32)}`,
    });
    const body = {
      actions: [
        {
          type: "walletRpc",
          data: {
            chain_id: "eip155:8453",
            method: "eth_signTypedData_v4",
            params: ["0x1111111111111111111111111111111111111111", JSON.stringify(typedData)],
          },
        },
        { type: "qrCode", data: { text: "x" } },
      ],
    };
    const { client } = clientAnswering(body, "strict");
    const result = await client.gateway.fetchAction("pay_1");
    expect(JSON.parse(JSON.stringify(result))).toEqual(body);
    const [action] = result.actions;
    if (!action || !isWalletRpcAction(action) || !action.quantities)
      throw new Error("expected a decoded action");
    expect(typeof action.quantities.value).toBe("bigint");
    expect(JSON.parse(JSON.stringify(action.quantities))).toMatchObject({
      value: String(action.quantities.value),
    });
  });

  it("tolerant: a walletRpc action with a mistyped leaf still gets its decoded view, with drift on that leaf", async () => {
    const body = {
      actions: [
        {
          type: "walletRpc",
          data: { chain_id: "eip155:8453", method: 4, params: [42, "not typed data"] },
        },
      ],
    };
    const { client, drift } = clientAnswering(body, "tolerant");
    const [action] = (await client.gateway.fetchAction("pay_1")).actions;
    if (!action || !isWalletRpcAction(action)) throw new Error("expected a walletRpc action");
    expect([action.signer, action.typedData, action.quantities]).toEqual([null, null, null]);
    expect(action.data.method).toBe(4); // kept as it arrived, not dropped or replaced
    expect(drift.map((event) => event.path)).toEqual(["actions.0.data.method", "actions.0.data.params.0"]);
  });
});
