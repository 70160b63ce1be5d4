/**
 * One path: every built-in operation, re-declared as a custom operation (`client.request`), sends byte-identical
 * requests (method, URL, headers, body) and resolves to an equal result against the mock. The idempotency key is
 * fixed through the options; the mock then replays a write for the second call, which it does only when the two
 * requests carry the same body.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import type { CustomOperation, MerchantPaymentsClient, RequestOptions } from "../src/index.js";
import * as schemas from "../src/schemas/operations.js";
import { createMockService } from "../src/testing/msw.js";
import { testClient } from "./helpers/clients.js";
import { useMswServer } from "./helpers/msw.js";

const mock = createMockService();
useMswServer(...mock.handlers);

interface Sent {
  method: string;
  url: string;
  headers: [string, string][];
  body: string;
}
const sent: Sent[] = [];

/** A fetch that keeps what the client hands it, then lets the mock's MSW handlers answer. */
const recordingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const { method, url } = request;
  sent.push({ method, url, headers: [...request.headers], body: await request.clone().text() });
  return fetch(request);
};

const sdk = (): MerchantPaymentsClient => testClient(mock, { fetch: recordingFetch });

/** What the operations use: ids the mock made before the tests. */
const ids = { merchantId: "", settlementId: "", paymentId: "", actionPaymentId: "", checkoutId: "" };
const ORDER = { unit: "iso4217/USD", value: "1050" };
const URLS = { successUrl: "https://shop.example/ok", errorUrl: "https://shop.example/ko" };
const DESTINATION = "eip155:84532:0x2222222222222222222222222222222222222222";

beforeAll(async () => {
  const c = testClient(mock);
  ids.merchantId = mock.merchantId;
  ids.settlementId = (await c.settlements.list(mock.merchantId)).crypto[0]!.id;
  ids.paymentId = (await c.payments.create({ referenceId: "one-path-1", amount: ORDER })).id;
  ids.actionPaymentId = (await c.payments.create({ referenceId: "one-path-2", amount: ORDER })).id;
  ids.checkoutId = (await c.checkout.create({ referenceId: "one-path-3", amount: ORDER, ...URLS })).paymentId;
});

/** The last request's body, parsed: what the custom operation sends as its own JSON body. */
const lastBody = (): unknown => JSON.parse(sent.at(-1)!.body);

/** A built-in call, and the same operation described for `client.request()` (`unwrap`: the row's result field). */
interface Case {
  builtIn: (c: MerchantPaymentsClient, o: RequestOptions) => Promise<unknown>;
  custom: () => CustomOperation<z.core.$ZodType>;
  unwrap?: "merchant";
}

const merchant = () => ({ merchantId: ids.merchantId });
const payment = (paymentId: string) => ({ params: { paymentId }, merchantScoped: true });

const CASES: Record<string, Case> = {
  "merchants.list": {
    builtIn: (c, o) => c.merchants.list({ limit: 5, active: true }, o),
    custom: () => ({
      method: "GET",
      path: "/v1/merchants",
      query: { limit: 5, active: true },
      response: schemas.listMerchantsResponseSchema,
    }),
  },
  "merchants.create": {
    builtIn: (c, o) => c.merchants.create({ name: "One Path", email: "one@shop.example" }, o),
    custom: () => ({
      method: "POST",
      path: "/v1/merchants",
      body: lastBody(),
      response: schemas.createMerchantResponseSchema,
    }),
    unwrap: "merchant",
  },
  "merchants.retrieve": {
    builtIn: (c, o) => c.merchants.retrieve(ids.merchantId, o),
    custom: () => ({
      method: "GET",
      path: "/v1/merchants/{merchantId}",
      params: merchant(),
      response: schemas.retrieveMerchantResponseSchema,
    }),
    unwrap: "merchant",
  },
  "settlements.list": {
    builtIn: (c, o) => c.settlements.list(ids.merchantId, o),
    custom: () => ({
      method: "GET",
      path: "/v1/merchants/{merchantId}/settlements",
      params: merchant(),
      response: schemas.settlementsListSchema,
    }),
  },
  "settlements.updateCrypto": {
    builtIn: (c, o) =>
      c.settlements.updateCrypto(ids.merchantId, ids.settlementId, { destination: DESTINATION }, o),
    custom: () => ({
      method: "PUT",
      path: "/v1/merchants/{merchantId}/settlements/crypto/{settlementId}",
      params: { ...merchant(), settlementId: ids.settlementId },
      body: lastBody(),
      response: schemas.updateCryptoSettlementResponseSchema,
    }),
  },
  "settlements.createCrypto": {
    builtIn: (c, o) =>
      c.settlements.createCrypto(
        ids.merchantId,
        [{ asset: "eip155:84532/slip44:60", destination: DESTINATION }],
        o,
      ),
    custom: () => ({
      method: "POST",
      path: "/v1/merchants/{merchantId}/settlements/crypto",
      params: merchant(),
      body: lastBody(),
      response: schemas.createCryptoSettlementsResponseSchema,
    }),
  },
  "payments.create": {
    builtIn: (c, o) => c.payments.create({ referenceId: "one-path-4", amount: ORDER }, o),
    custom: () => ({
      method: "POST",
      path: "/v1/payments",
      merchantScoped: true,
      body: lastBody(),
      response: schemas.createPaymentResponseSchema,
    }),
  },
  "payments.status": {
    builtIn: (c, o) => c.payments.status(ids.paymentId, o),
    custom: () => ({
      method: "GET",
      path: "/v1/payments/{paymentId}/status",
      ...payment(ids.paymentId),
      response: schemas.paymentStatusResultSchema,
    }),
  },
  "gateway.fetchAction": {
    builtIn: (c, o) => c.gateway.fetchAction(ids.actionPaymentId, { optionId: ids.settlementId }, o),
    custom: () => ({
      method: "POST",
      path: "/v1/gateway/payment/{paymentId}/fetch",
      params: { paymentId: ids.actionPaymentId },
      body: lastBody(),
      response: schemas.fetchActionSchema,
    }),
  },
  "payments.cancel": {
    builtIn: (c, o) => c.payments.cancel(ids.paymentId, o),
    custom: () => ({
      method: "POST",
      path: "/v1/payments/{paymentId}/cancel",
      ...payment(ids.paymentId),
      response: schemas.cancellationResultSchema,
    }),
  },
  "checkout.create": {
    builtIn: (c, o) => c.checkout.create({ referenceId: "one-path-5", amount: ORDER, ...URLS }, o),
    custom: () => ({
      method: "POST",
      path: "/v1/merchant/payment",
      merchantScoped: true,
      body: lastBody(),
      response: schemas.createCheckoutResponseSchema,
    }),
  },
  "checkout.status": {
    builtIn: (c, o) => c.checkout.status(ids.checkoutId, o),
    custom: () => ({
      method: "GET",
      path: "/v1/merchant/payment/{paymentId}/status",
      ...payment(ids.checkoutId),
      response: schemas.checkoutStatusResultSchema,
    }),
  },
};

describe("a built-in operation re-declared as a custom one", () => {
  it("covers every row of the operations table", async () => {
    const { OPERATIONS } = await import("../src/operations.js");
    const calls = Object.values(OPERATIONS).map((row) => row.call.slice(0, row.call.indexOf("(")));
    expect(Object.keys(CASES).sort()).toEqual(calls.sort());
  });

  it.each(Object.entries(CASES))(
    "%s: byte-identical request, equal result",
    async (name, { builtIn, custom, unwrap }) => {
      const options = { idempotencyKey: `one-path-${name}` };
      sent.length = 0;
      const expected = await builtIn(sdk(), options);
      const answer = await sdk().request(custom(), options);
      const actual = unwrap === undefined ? answer : (answer as Record<string, unknown>)[unwrap];
      expect(sent).toHaveLength(2);
      expect(sent[1]).toEqual(sent[0]);
      expect(actual).toEqual(expected);
    },
  );
});
