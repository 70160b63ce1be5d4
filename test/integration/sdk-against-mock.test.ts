/**
 * The SDK against the bundled mock service, end to end through real HTTP semantics: once through MSW
 * (`setupServer(...mock.handlers)`, in process) and once through `startMockServer()` on 127.0.0.1.
 * Every rule of the mock is observed through the SDK's public API only.
 */
import { inspect } from "node:util";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type APIError,
  AuthenticationError,
  BadRequestError,
  CheckoutReturnError,
  type ClientOptions,
  ConflictError,
  isWalletRpcAction,
  MerchantPaymentsClient,
  money,
  NotFoundError,
  type PaymentStatusResult,
  PermissionDeniedError,
  RateLimitError,
} from "../../src/index.js";
import {
  createMockService,
  DEFAULT_DESTINATION_ADDRESS,
  DEFAULT_LIVE_ASSET,
  DEFAULT_TEST_ASSET,
  MOCK_BUYER_ADDRESS,
  MOCK_DEFAULT_VERSION,
  type MockService,
  type MockServiceOptions,
  startMockServer,
} from "../../src/testing/msw.js";
import { testClient } from "../helpers/clients.js";
import { FAIL_ON_UNHANDLED } from "../helpers/msw.js";

const POLL_IN_MS = 5;
const TTL_MS = 60_000;
const MOCK_OPTIONS: MockServiceOptions = { pollInMs: POLL_IN_MS, paymentTtlMs: TTL_MS };

/** A way to reach the mock: the mock itself and the base URL the SDK talks to. */
interface Backend {
  mock: MockService;
  baseUrl: string;
}

type BackendFactory = () => { setup: () => Promise<Backend>; teardown: () => Promise<void> };

const viaMsw: BackendFactory = () => {
  const mock = createMockService(MOCK_OPTIONS);
  const server = setupServer(...mock.handlers);
  return {
    async setup() {
      server.listen(FAIL_ON_UNHANDLED);
      return { mock, baseUrl: mock.baseUrl };
    },
    async teardown() {
      server.close();
    },
  };
};

const viaHttpServer: BackendFactory = () => {
  let close: (() => Promise<void>) | undefined;
  return {
    async setup() {
      const server = await startMockServer(MOCK_OPTIONS);
      close = () => server.close();
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.service.baseUrl).toBe(server.url);
      return { mock: server.service, baseUrl: server.url };
    },
    async teardown() {
      await close?.();
    },
  };
};

async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** Asserts the call fails with an APIError of `type`, `status` and `code`, and returns it. */
async function apiFailure<T extends APIError>(
  call: () => Promise<unknown>,
  type: abstract new (...args: never[]) => T,
  status: number,
  code: string,
): Promise<T> {
  const error = await failure(call);
  expect(error).toBeInstanceOf(type);
  const apiError = error as T;
  expect(apiError.status).toBe(status);
  expect(apiError.code).toBe(code);
  return apiError;
}

const ORDER_AMOUNT = money("10.50", "USD");

describe.each([
  ["MSW handlers", viaMsw],
  ["mock HTTP server on 127.0.0.1", viaHttpServer],
])("the SDK against the mock via %s", (_name, factory) => {
  const backend = factory();
  let mock: MockService;
  let baseUrl: string;

  beforeAll(async () => {
    ({ mock, baseUrl } = await backend.setup());
  });
  afterAll(() => backend.teardown());
  beforeEach(() => mock.reset());

  /** A test-mode client of the default account, with fast retries. */
  function client(options: ClientOptions = {}): MerchantPaymentsClient {
    return testClient(mock, {
      baseUrl,
      retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 20 },
      ...options,
    });
  }

  const apiRequests = () => mock.requests.filter((r) => r.path.startsWith("/v1/"));

  describe("authentication", () => {
    it("answers a missing key with AuthenticationError missing_api_key", async () => {
      // The SDK always sends its key; a fetch that strips it plays a proxy that drops the header.
      const stripKey: typeof fetch = (input, init) => {
        const request = new Request(input, init);
        request.headers.delete("api-key");
        return fetch(request);
      };
      await apiFailure(
        () => client({ fetch: stripKey }).merchants.list(),
        AuthenticationError,
        401,
        "missing_api_key",
      );
    });

    it("answers an unknown key with AuthenticationError invalid_api_key, without leaking the key", async () => {
      const badKey = "mock_test_not_a_real_key_123";
      const error = await apiFailure(
        () => client({ apiKey: badKey }).merchants.retrieve(mock.merchantId),
        AuthenticationError,
        401,
        "invalid_api_key",
      );
      expect(error.requestId).toMatch(/^req_/);
      for (const shown of [String(error), error.stack ?? "", JSON.stringify(error), inspect(error)]) {
        expect(shown).not.toContain(badKey);
      }
    });

    it("answers another account's merchant and payment with PermissionDeniedError", async () => {
      const payment = await client().payments.create({ referenceId: "order-1", amount: ORDER_AMOUNT });
      const other = mock.createAccount();
      const stranger = client({ apiKey: other.keys.test });
      await apiFailure(
        () => stranger.merchants.retrieve(mock.merchantId),
        PermissionDeniedError,
        403,
        "forbidden",
      );
      await apiFailure(() => stranger.payments.status(payment.id), PermissionDeniedError, 403, "forbidden");
      // The other account sees none of the default account's merchants.
      expect((await stranger.merchants.list()).data).toEqual([]);
    });

    it("authenticates with App-Id + Client-Id in the key's mode", async () => {
      const app = mock.keys.app.test;
      const byApp = new MerchantPaymentsClient({ appId: app.appId, clientId: app.clientId, baseUrl });
      expect(byApp.mode).toBe("unknown");
      const merchant = await byApp.merchants.retrieve(mock.merchantId);
      expect(merchant.id).toBe(mock.merchantId);
      const logged = apiRequests().at(-1)!;
      expect(logged.headers["app-id"]).toBe(app.appId);
      expect(logged.headers["client-id"]).toBe(app.clientId);
      expect(logged.headers["api-key"]).toBeUndefined();
    });
  });

  describe("merchants and test/live separation", () => {
    it("creates, lists and retrieves a merchant", async () => {
      const sdk = client();
      const created = await sdk.merchants.create({ name: "Acme Store", email: "billing@acme.example" });
      expect(created).toMatchObject({ name: "Acme Store", email: "billing@acme.example", status: "active" });
      expect(created.id).toMatch(/^mrch_/);
      const listed = await sdk.merchants.list();
      expect(listed.data.map((m) => (m as { id?: unknown }).id)).toContain(created.id);
      const retrieved = await sdk.merchants.retrieve(created.id);
      expect(retrieved).toMatchObject({
        id: created.id,
        iconUrl: null,
        settlements: { crypto: [], fiat: [] },
      });
      expect(retrieved.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(mock.getMerchant(created.id).mode).toBe("test");
    });

    it("keeps test data out of live mode: a test merchant is NotFound with the live key", async () => {
      const created = await client().merchants.create({ name: "Test Only", email: "t@shop.example" });
      const live = client({ apiKey: mock.keys.live, merchantId: mock.liveMerchantId! });
      expect(client().mode).toBe("test");
      expect(live.mode).toBe("live");
      await apiFailure(() => live.merchants.retrieve(created.id), NotFoundError, 404, "not_found");
      await apiFailure(() => live.settlements.list(created.id), NotFoundError, 404, "not_found");
      const liveIds = (await live.merchants.list()).data.map((m) => (m as { id?: unknown }).id);
      expect(liveIds).toEqual([mock.liveMerchantId]);
      // And the other way round: the live merchant does not exist for the test key.
      await apiFailure(
        () => client().merchants.retrieve(mock.liveMerchantId!),
        NotFoundError,
        404,
        "not_found",
      );
      // A payment with a test-mode Merchant-Id under the live key: not found either.
      await apiFailure(
        () => live.payments.create({ referenceId: "x", amount: ORDER_AMOUNT }, { merchantId: created.id }),
        NotFoundError,
        404,
        "not_found",
      );
    });

    it("creates one merchant for two calls with the same idempotencyKey", async () => {
      const sdk = client();
      const input = { name: "Idempotent Shop", email: "idem@shop.example" };
      const idempotencyKey = "4d7f1c1e-1b1a-4b8e-9f3e-0e6c2a9d5b11";
      const first = await sdk.merchants.create(input, { idempotencyKey });
      const second = await sdk.merchants.create(input, { idempotencyKey });
      expect(second).toEqual(first);
      expect(mock.merchants.filter((m) => m.name === input.name)).toHaveLength(1);
      const posts = apiRequests().filter((r) => r.method === "POST" && r.path === "/v1/merchants");
      expect(posts.map((r) => r.headers["idempotency-key"])).toEqual([idempotencyKey, idempotencyKey]);
      // The same key with another body is refused rather than silently replayed.
      await apiFailure(
        () => sdk.merchants.create({ ...input, name: "Another" }, { idempotencyKey }),
        BadRequestError,
        422,
        "idempotency_key_reused",
      );
      // Without a key of ours, each call gets a fresh one: two merchants.
      await sdk.merchants.create(input);
      await sdk.merchants.create(input);
      expect(mock.merchants.filter((m) => m.name === input.name)).toHaveLength(3);
    });
  });

  describe("settlements", () => {
    it("registers, conflicts on a registered asset, and updates a destination", async () => {
      const sdk = client();
      const merchant = await sdk.merchants.create({ name: "Settler", email: "s@shop.example" });
      const destination = "eip155:84532:0x1111111111111111111111111111111111111111";
      await sdk.settlements.createCrypto(merchant.id, [{ asset: DEFAULT_TEST_ASSET, destination }]);
      const listed = await sdk.settlements.list(merchant.id);
      expect(listed.fiat).toEqual([]);
      expect(listed.crypto).toEqual([
        { id: expect.stringMatching(/^crypto_/), asset: DEFAULT_TEST_ASSET, destination },
      ]);

      const conflict = await apiFailure(
        () =>
          sdk.settlements.createCrypto(merchant.id, [
            {
              asset: DEFAULT_TEST_ASSET,
              destination: "eip155:84532:0x2222222222222222222222222222222222222222",
            },
          ]),
        ConflictError,
        409,
        "settlement_asset_conflict",
      );
      expect(conflict.path).toBe(`/v1/merchants/${merchant.id}/settlements/crypto`);
      expect((await sdk.settlements.list(merchant.id)).crypto).toEqual(listed.crypto);

      const settlementId = listed.crypto[0]!.id;
      const moved = "eip155:84532:0x3333333333333333333333333333333333333333";
      await sdk.settlements.updateCrypto(merchant.id, settlementId, { destination: moved });
      const after = await sdk.settlements.list(merchant.id);
      expect(after.crypto).toEqual([{ id: settlementId, asset: DEFAULT_TEST_ASSET, destination: moved }]);
      expect((await sdk.merchants.retrieve(merchant.id)).settlements.crypto).toEqual(after.crypto);
    });

    it("answers an unknown settlement id with NotFoundError", async () => {
      await apiFailure(
        () =>
          client().settlements.updateCrypto(mock.merchantId, "crypto_missing", {
            destination: `eip155:84532:${DEFAULT_DESTINATION_ADDRESS}`,
          }),
        NotFoundError,
        404,
        "not_found",
      );
    });
  });

  describe("payments", () => {
    it("creates a payment, reads its status and cancels it", async () => {
      const sdk = client();
      const payment = await sdk.payments.create({ referenceId: "order-42", amount: money("5", "EUR") });
      expect(payment.id).toMatch(/^pay_/);
      expect(payment).toMatchObject({ paymentLink: `${baseUrl}/portal/${payment.id}` });
      expect(mock.getPayment(payment.id)).toMatchObject({
        referenceId: "order-42",
        amount: { unit: "iso4217/EUR", value: "500" },
        merchantId: mock.merchantId,
        flow: "direct",
      });
      expect(await sdk.payments.status(payment.id)).toEqual({
        status: "requires_action",
        isFinal: false,
        pollInMs: POLL_IN_MS,
      });

      const cancelled = await sdk.payments.cancel(payment.id);
      expect(cancelled).toMatchObject({
        paymentId: payment.id,
        status: "cancelled",
        cancelledReason: "cancelled_by_merchant",
      });
      expect(Number.isNaN(Date.parse(cancelled.cancelledAt))).toBe(false);
      expect(await sdk.payments.status(payment.id)).toEqual({
        status: "cancelled",
        isFinal: true,
        pollInMs: null,
      });
    });

    it("refuses to cancel a final payment with ConflictError payment_not_cancellable", async () => {
      const sdk = client();
      for (const finish of [mock.completePayment, mock.failPayment, mock.expirePayment, mock.cancelPayment]) {
        const { id } = await sdk.payments.create({ referenceId: "order-final", amount: ORDER_AMOUNT });
        finish(id);
        const error = await apiFailure(
          () => sdk.payments.cancel(id),
          ConflictError,
          409,
          "payment_not_cancellable",
        );
        expect(error.details).toEqual({ status: mock.getPayment(id).status });
      }
    });

    it("answers an unknown payment, or one of another merchant, with NotFoundError", async () => {
      const sdk = client();
      await apiFailure(() => sdk.payments.status("pay_unknown"), NotFoundError, 404, "not_found");
      const { id } = await sdk.payments.create({ referenceId: "o", amount: ORDER_AMOUNT });
      const other = await sdk.merchants.create({ name: "Other", email: "o@shop.example" });
      await apiFailure(
        () => sdk.payments.status(id, { merchantId: other.id }),
        NotFoundError,
        404,
        "not_found",
      );
    });

    it("follows the state machine: requires_action → processing → succeeded, with txId test:<id>", async () => {
      const sdk = client();
      const { id } = await sdk.payments.create({ referenceId: "order-sm", amount: ORDER_AMOUNT });
      mock.markProcessing(id);
      expect(await sdk.payments.status(id)).toEqual({
        status: "processing",
        isFinal: false,
        pollInMs: POLL_IN_MS,
      });
      mock.completePayment(id);
      const option = mock.paymentOptions(id)[0]!;
      expect(await sdk.payments.status(id)).toEqual({
        status: "succeeded",
        isFinal: true,
        pollInMs: null,
        info: {
          txId: `test:${id}`,
          optionAmount: { unit: `caip19/${DEFAULT_TEST_ASSET}`, value: option.amount.value },
        },
      });
      // 10.50 USD in USDC (6 decimals).
      expect(option.amount.value).toBe("10500000");
    });

    it("waitForFinal sees each status the mock controls drive it through", async () => {
      const sdk = client();
      const { id } = await sdk.payments.create({ referenceId: "order-wait", amount: ORDER_AMOUNT });
      const seen: string[] = [];
      const final = await sdk.payments.waitForFinal(id, {
        maxWaitMs: 5_000,
        minIntervalMs: 1,
        onUpdate: (s) => {
          seen.push(s.status);
          if (s.status === "requires_action") mock.markProcessing(id);
          if (s.status === "processing") mock.completePayment(id);
        },
      });
      expect(seen).toEqual(["requires_action", "processing", "succeeded"]);
      expect(final.info?.txId).toBe(`test:${id}`);
      // Polling followed pollInMs: several status calls were made, all with the Merchant-Id.
      const polls = apiRequests().filter((r) => r.path === `/v1/payments/${id}/status`);
      expect(polls.length).toBeGreaterThanOrEqual(3);
      expect(new Set(polls.map((r) => r.headers["merchant-id"]))).toEqual(new Set([mock.merchantId]));
    });

    it.each([
      ["failPayment", "failed"],
      ["expirePayment", "expired"],
      ["cancelPayment", "cancelled"],
    ] as const)("waitForFinal ends on %s with %s and no info", async (control, status) => {
      const sdk = client();
      const { id } = await sdk.payments.create({ referenceId: `order-${status}`, amount: ORDER_AMOUNT });
      const final = await sdk.payments.waitForFinal(id, {
        maxWaitMs: 5_000,
        minIntervalMs: 1,
        onUpdate: (s) => {
          if (s.status === "requires_action") mock[control](id);
        },
      });
      expect(final).toEqual({ status, isFinal: true, pollInMs: null });
    });

    it("expires a payment once the mock clock passes its expiry", async () => {
      const sdk = client();
      const { id } = await sdk.payments.create({ referenceId: "order-ttl", amount: ORDER_AMOUNT });
      mock.advanceTime(TTL_MS - 1_000);
      expect((await sdk.payments.status(id)).status).toBe("requires_action");
      const statuses: PaymentStatusResult[] = [];
      const final = await sdk.payments.waitForFinal(id, {
        maxWaitMs: 5_000,
        minIntervalMs: 1,
        onUpdate: (s) => {
          statuses.push(s);
          if (s.status === "requires_action") mock.advanceTime(1_001);
        },
      });
      expect(final).toEqual({ status: "expired", isFinal: true, pollInMs: null });
      // An expired payment cannot be cancelled or acted on.
      await apiFailure(() => sdk.payments.cancel(id), ConflictError, 409, "payment_not_cancellable");
      await apiFailure(() => sdk.gateway.fetchAction(id), ConflictError, 409, "payment_not_actionable");
    });

    it("gives a live-mode payment a real-looking transaction hash, not test:<id>", async () => {
      const live = client({ apiKey: mock.keys.live, merchantId: mock.liveMerchantId! });
      const { id } = await live.payments.create({ referenceId: "order-live", amount: ORDER_AMOUNT });
      mock.completePayment(id);
      const status = await live.payments.status(id);
      expect(status.info?.txId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(status.info?.optionAmount?.unit).toBe(`caip19/${DEFAULT_LIVE_ASSET}`);
    });
  });

  describe("checkout", () => {
    const URLS = { successUrl: "https://shop.example/success", errorUrl: "https://shop.example/error" };

    it("returns a gatewayUrl on the portal and a redirect that verifies as fulfil on success", async () => {
      const sdk = client();
      const { paymentId, gatewayUrl } = await sdk.checkout.create({
        referenceId: "order-co",
        amount: ORDER_AMOUNT,
        ...URLS,
      });
      expect(gatewayUrl).toBe(`${baseUrl}/portal/${paymentId}`);
      const body = apiRequests().find((r) => r.path === "/v1/merchant/payment")!.body;
      expect(body).toEqual({ referenceId: "order-co", amount: ORDER_AMOUNT, checkout: URLS });

      expect((await sdk.checkout.status(paymentId)).status).toBe("requires_action");
      const url = mock.simulateBuyer(paymentId, { outcome: "success" });
      expect(url).toBe(`${URLS.successUrl}?payment_id=${paymentId}`);
      const outcome = await sdk.checkout.verifyReturn({ url: url!, expectedPaymentId: paymentId });
      expect(outcome).toMatchObject({ paymentId, fulfil: true, next: "fulfil" });
      expect(outcome.status?.info?.txId).toBe(`test:${paymentId}`);
      // Verification asked the service, on the checkout status path.
      expect(apiRequests().at(-1)).toMatchObject({
        method: "GET",
        path: `/v1/merchant/payment/${paymentId}/status`,
        headers: { "merchant-id": mock.merchantId },
      });
    });

    it("verifies a failure as show_error, even when the buyer lands on the success URL", async () => {
      const sdk = client();
      const { paymentId } = await sdk.checkout.create({
        referenceId: "order-fail",
        amount: ORDER_AMOUNT,
        ...URLS,
      });
      const url = mock.simulateBuyer(paymentId, { outcome: "failure" });
      expect(url).toBe(`${URLS.errorUrl}?payment_id=${paymentId}`);
      expect(await sdk.checkout.verifyReturn({ url: url!, expectedPaymentId: paymentId })).toMatchObject({
        fulfil: false,
        next: "show_error",
        status: { status: "failed", isFinal: true },
      });
      const forged = `${URLS.successUrl}?payment_id=${paymentId}`;
      expect(await sdk.checkout.verifyReturn({ url: forged, expectedPaymentId: paymentId })).toMatchObject({
        fulfil: false,
        next: "show_error",
      });
    });

    it("refuses a return for another payment before asking the service", async () => {
      const sdk = client();
      const mine = await sdk.checkout.create({ referenceId: "a", amount: ORDER_AMOUNT, ...URLS });
      const theirs = await sdk.checkout.create({ referenceId: "b", amount: ORDER_AMOUNT, ...URLS });
      const url = mock.simulateBuyer(theirs.paymentId, { outcome: "success" })!;
      mock.clearRequests();
      const error = await failure(() =>
        sdk.checkout.verifyReturn({ url, expectedPaymentId: mine.paymentId }),
      );
      expect(error).toBeInstanceOf(CheckoutReturnError);
      expect((error as CheckoutReturnError).problem).toBe("payment_id_mismatch");
      expect(mock.requests).toEqual([]);
    });

    it("verifyReturn with wait polls a processing payment until it is final", async () => {
      const sdk = client();
      const { paymentId } = await sdk.checkout.create({
        referenceId: "order-wait",
        amount: ORDER_AMOUNT,
        ...URLS,
      });
      mock.markProcessing(paymentId);
      const outcome = await sdk.checkout.verifyReturn({
        url: `/success?payment_id=${paymentId}`,
        expectedPaymentId: paymentId,
        wait: {
          maxWaitMs: 5_000,
          minIntervalMs: 1,
          onUpdate: (s) => {
            if (s.status === "processing") mock.completePayment(paymentId);
          },
        },
      });
      expect(outcome).toMatchObject({ fulfil: true, next: "fulfil" });
      // Without waiting, a processing payment says keep_waiting.
      const next = await sdk.checkout.create({ referenceId: "order-wait-2", amount: ORDER_AMOUNT, ...URLS });
      mock.markProcessing(next.paymentId);
      expect(
        await sdk.checkout.verifyReturn({
          query: { payment_id: next.paymentId },
          expectedPaymentId: next.paymentId,
        }),
      ).toMatchObject({ fulfil: false, next: "keep_waiting" });
    });

    it("creates a checkout without redirects: no checkout object, no redirect URL", async () => {
      const sdk = client();
      const { paymentId } = await sdk.checkout.create({
        referenceId: "generic",
        amount: ORDER_AMOUNT,
        redirects: false,
      });
      expect(apiRequests().at(-1)!.body).toEqual({ referenceId: "generic", amount: ORDER_AMOUNT });
      expect(mock.getPayment(paymentId).redirects).toBeNull();
      expect(mock.simulateBuyer(paymentId, { outcome: "success" })).toBeNull();
      expect((await sdk.checkout.status(paymentId)).status).toBe("succeeded");
    });
  });

  describe("gateway", () => {
    it("returns a walletRpc action paying the settlement destination, with bigint quantities", async () => {
      const sdk = client();
      const { id } = await sdk.payments.create({ referenceId: "order-gw", amount: ORDER_AMOUNT });
      const { actions } = await sdk.gateway.fetchAction(id);
      expect(actions).toHaveLength(1);
      const action = actions[0]!;
      if (!isWalletRpcAction(action)) throw new Error(`expected a walletRpc action, got ${action.type}`);
      expect(action.data.method).toBe("eth_signTypedData_v4");
      expect(action.data.chain_id).toBe("eip155:84532");
      expect(action.signer).toBe(MOCK_BUYER_ADDRESS);
      expect(action.typedData?.primaryType).toBe("ReceiveWithAuthorization");
      expect(action.typedData?.message.to).toBe(DEFAULT_DESTINATION_ADDRESS);
      expect(action.typedData?.message.from).toBe(MOCK_BUYER_ADDRESS);
      expect(action.typedData?.domain.verifyingContract).toBe(DEFAULT_TEST_ASSET.split(":").at(-1));
      const q = action.quantities!;
      expect(typeof q.value).toBe("bigint");
      expect(q.value).toBe(10_500_000n);
      expect(q.chainId).toBe(84_532n);
      expect(q.validAfter).toBe(0n);
      expect(q.validBefore).toBe(BigInt(Math.floor(mock.getPayment(id).expiresAt / 1000)));
      expect(typeof q.nonce).toBe("bigint");
      // Fetching the action does not move the payment.
      expect((await sdk.payments.status(id)).status).toBe("requires_action");
    });

    it("follows an updated destination and refuses an unknown option", async () => {
      const sdk = client();
      const [settlement] = (await sdk.settlements.list(mock.merchantId)).crypto;
      const address = "0x4444444444444444444444444444444444444444";
      await sdk.settlements.updateCrypto(mock.merchantId, settlement!.id, {
        destination: `eip155:84532:${address}`,
      });
      const { id } = await sdk.payments.create({ referenceId: "order-gw2", amount: ORDER_AMOUNT });
      const { actions } = await sdk.gateway.fetchAction(id, { optionId: settlement!.id });
      const action = actions[0]!;
      expect(isWalletRpcAction(action) && action.typedData?.message.to).toBe(address);
      expect(apiRequests().at(-1)!.body).toEqual({ optionId: settlement!.id });
      await apiFailure(
        () => sdk.gateway.fetchAction(id, { optionId: "crypto_nope" }),
        BadRequestError,
        400,
        "invalid_option_id",
      );
      mock.completePayment(id);
      await apiFailure(() => sdk.gateway.fetchAction(id), ConflictError, 409, "payment_not_actionable");
    });
  });

  describe("headers: version pinning, Merchant-Id, redaction", () => {
    /** A fetch that keeps the version header of each answer. */
    function recordingFetch(seen: (string | null)[]): typeof fetch {
      return async (input, init) => {
        const response = await fetch(input, init);
        seen.push(response.headers.get(mock.versionHeader));
        return response;
      };
    }

    it("sends the pinned version, which the mock echoes; the default is echoed when none is pinned", async () => {
      const echoed: (string | null)[] = [];
      const pinned = client({
        versionHeader: mock.versionHeader,
        apiVersion: "2026-02-19.preview",
        fetch: recordingFetch(echoed),
      });
      await pinned.merchants.list();
      await pinned.merchants.list({}, { apiVersion: "2025-12-01" });
      const unpinned = client({ fetch: recordingFetch(echoed) });
      await unpinned.merchants.list();
      expect(apiRequests().map((r) => r.version)).toEqual(["2026-02-19.preview", "2025-12-01", null]);
      expect(echoed).toEqual(["2026-02-19.preview", "2025-12-01", MOCK_DEFAULT_VERSION]);
    });

    it("carries Merchant-Id on payment operations, per call when overridden, and not elsewhere", async () => {
      const sdk = client();
      const other = await sdk.merchants.create({ name: "Second", email: "second@shop.example" });
      const a = await sdk.payments.create({ referenceId: "m1", amount: ORDER_AMOUNT });
      const b = await sdk.checkout.create(
        { referenceId: "m2", amount: ORDER_AMOUNT, redirects: false },
        { merchantId: other.id },
      );
      await sdk.payments.status(a.id);
      await sdk.checkout.status(b.paymentId, { merchantId: other.id });
      expect(mock.getPayment(b.paymentId).merchantId).toBe(other.id);
      const seen = apiRequests().map((r) => [r.method, r.path, r.headers["merchant-id"]]);
      expect(seen).toEqual([
        ["POST", "/v1/merchants", undefined],
        ["POST", "/v1/payments", mock.merchantId],
        ["POST", "/v1/merchant/payment", other.id],
        ["GET", `/v1/payments/${a.id}/status`, mock.merchantId],
        ["GET", `/v1/merchant/payment/${b.paymentId}/status`, other.id],
      ]);
    });

    it("never logs the API key: the mock's request log shows it redacted", async () => {
      const sdk = client();
      const live = client({ apiKey: mock.keys.live, merchantId: mock.liveMerchantId! });
      await sdk.merchants.list();
      await live.merchants.list();
      await sdk.payments.create({ referenceId: "r", amount: ORDER_AMOUNT });
      const logged = apiRequests();
      expect(logged.map((r) => r.headers["api-key"])).toEqual(["mock_test_***", "mock_***", "mock_test_***"]);
      // The whole log (the state's `accounts` hold the keys on purpose: they are the mock's own fixtures).
      const all = JSON.stringify(mock.state.requests);
      expect(all).not.toContain(mock.keys.test);
      expect(all).not.toContain(mock.keys.live);
    });
  });

  describe("faults", () => {
    const input = { name: "Fault Tolerant", email: "ft@shop.example" };
    const created = () => mock.merchants.filter((m) => m.name === input.name);
    const merchantPosts = () =>
      apiRequests().filter((r) => r.method === "POST" && r.path === "/v1/merchants");

    it.each([
      ["rateLimit before the operation", { type: "rateLimit", retryAfterSeconds: 0 }, [429, 201]],
      ["serverError before the operation", { type: "serverError", status: 503 }, [503, 201]],
      ["serverError after the operation", { type: "serverError", after: true }, [500, 201]],
      ["drop after the operation", { type: "drop", after: true }, [null, 201]],
      ["drop before the operation", { type: "drop" }, [null, 201]],
    ] as const)("merchant creation survives %s: exactly one merchant", async (_label, fault, statuses) => {
      const retries: string[] = [];
      const sdk = client({ hooks: { onRetry: (e) => retries.push(e.reason) } });
      mock.injectFault({ ...fault, method: "POST", path: "/v1/merchants" });
      const merchant = await sdk.merchants.create(input);
      expect(created()).toHaveLength(1);
      expect(created()[0]!.id).toBe(merchant.id);
      const posts = merchantPosts();
      expect(posts.map((r) => r.status)).toEqual(statuses);
      // Both attempts carried the same idempotency key: the second replays (after) or creates (before).
      expect(new Set(posts.map((r) => r.headers["idempotency-key"])).size).toBe(1);
      expect(retries).toHaveLength(1);
    });

    it("spends its retries on a persistent rate limit and throws RateLimitError with retryAfterMs", async () => {
      const sdk = client({ maxRetries: 1 });
      mock.injectFault({ type: "rateLimit", retryAfterSeconds: 0, times: 5, path: "/v1/merchants" });
      const error = await apiFailure(() => sdk.merchants.create(input), RateLimitError, 429, "rate_limited");
      expect(error.retryAfterMs).toBe(0);
      expect(created()).toHaveLength(0);
      expect(merchantPosts()).toHaveLength(2);
    });

    it("repeats a payment creation that may have reached the service under its key, and creates it once", async () => {
      const sdk = client();
      const payments = () => mock.payments.filter((p) => p.referenceId === "order-fault");
      const body = { referenceId: "order-fault", amount: ORDER_AMOUNT };

      // Every POST carries a key (one is made when the caller gives none): the repeat is replayed, not acted on.
      mock.injectFault({ type: "serverError", after: true, path: "/v1/payments" });
      const first = await sdk.payments.create(body);
      expect(payments().map((p) => p.id)).toEqual([first.id]);

      mock.injectFault({ type: "drop", after: true, path: "/v1/payments" });
      const second = await sdk.payments.create(body);
      expect(payments().map((p) => p.id)).toEqual([first.id, second.id]);

      // With an idempotency key the retry is safe and replays the original.
      mock.injectFault({ type: "drop", after: true, path: "/v1/payments" });
      const keyed = await sdk.payments.create(body, { idempotencyKey: "order-fault-attempt-1" });
      expect(payments()).toHaveLength(3);
      expect(payments().at(-1)!.id).toBe(keyed.id);

      // A rate_limited refusal did nothing, so it is retried even without a key.
      mock.injectFault({ type: "rateLimit", retryAfterSeconds: 0, path: "/v1/payments" });
      await sdk.payments.create(body);
      expect(payments()).toHaveLength(4);
    });

    it("waitForFinal waits out transient faults on the status path", async () => {
      const sdk = client({ maxRetries: 0 });
      const { id } = await sdk.payments.create({ referenceId: "order-flaky", amount: ORDER_AMOUNT });
      mock.completePayment(id);
      mock.injectFault({ type: "serverError", status: 502, times: 2, path: `/v1/payments/${id}/status` });
      const final = await sdk.payments.waitForFinal(id, {
        maxWaitMs: 5_000,
        minIntervalMs: 1,
        defaultIntervalMs: 5,
      });
      expect(final.status).toBe("succeeded");
      expect(
        apiRequests()
          .filter((r) => r.path.endsWith("/status"))
          .map((r) => r.status),
      ).toEqual([502, 502, 200]);
    });
  });
});
