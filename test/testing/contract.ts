/**
 * The behaviour of the mock, stated once and run through every transport (MSW in process and the
 * loopback HTTP server), always with plain `fetch`.
 */

import { describe, expect, it } from "vitest";
import type { MockSeed } from "../../src/testing/index.js";
import {
  ADDR,
  call,
  createCheckout,
  createPayment,
  type Harness,
  type MockTransport,
  TEST_ASSET_BASE_SEPOLIA,
} from "../helpers/mock-harness.js";

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const TWO_ACCOUNTS: MockSeed = {
  accounts: [
    {
      keys: { test: "mock_test_alice", live: "mock_alice" },
      merchants: [
        {
          id: "mrch_alice",
          name: "Alice Shop",
          email: "a@example.com",
          iconUrl: "https://cdn.example.com/alice.png",
          crypto: [
            { id: "crypto_alice_usdc", asset: TEST_ASSET_BASE_SEPOLIA, destination: `eip155:84532:${ADDR}` },
          ],
          fiat: [{ id: "fiat_alice", status: "active", bankType: "iban" }],
        },
      ],
    },
    {
      keys: { test: "mock_test_bob", live: "mock_bob" },
      merchants: [{ id: "mrch_bob", name: "Bob Shop" }],
    },
  ],
};

/** A new merchant of the harness's account, for the settlement tests. */
async function newMerchant(h: Harness): Promise<string> {
  return (
    await call(h, "POST", "/v1/merchants", {
      idem: crypto.randomUUID(),
      body: { merchantName: "S", merchantEmail: "s@example.com" },
    })
  ).body.merchant.id;
}

/** The mock's behaviour, stated once, as seen through the transport `t`. */
export function defineContract(t: MockTransport): void {
  authenticationContract(t);
  merchantCreationContract(t);
  merchantLookupContract(t);
  cryptoSettlementsContract(t);
  paymentCreationContract(t);
  paymentLifecycleContract(t);
  checkoutFlowContract(t);
  checkoutPortalContract(t);
  gatewayFetchContract(t);
  gatewayFetchOptionsContract(t);
  faultKindsContract(t);
  faultTargetingContract(t);
  rateLimitVersionLogContract(t);
  httpControlsContract(t);
}

/** Credentials: API keys, App-Id with Client-Id, key prefixes, another account's merchant. */
function authenticationContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: authentication`, () => {
    it("401 missing_api_key without credentials, with an error body and a request id", async () => {
      const h = await setup();
      const r = await call(h, "GET", "/v1/merchants", { key: null });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ code: "missing_api_key", message: expect.any(String) });
      expect(Object.keys(r.body).every((k) => ["message", "code", "details"].includes(k))).toBe(true);
      expect(r.headers.get("request-id")).toMatch(/^req_/);
    });

    it("401 invalid_api_key for an unknown key", async () => {
      const h = await setup();
      const r = await call(h, "GET", "/v1/merchants", { key: "mock_test_nope" });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe("invalid_api_key");
    });

    it("App-Id needs Client-Id; the pair authenticates", async () => {
      const h = await setup();
      const app = h.mock.keys.app.test;
      const noClient = await call(h, "GET", "/v1/merchants", { key: null, headers: { "App-Id": app.appId } });
      expect(noClient.status).toBe(401);
      expect(noClient.body.code).toBe("missing_api_key");
      const wrong = await call(h, "GET", "/v1/merchants", {
        key: null,
        headers: { "App-Id": app.appId, "Client-Id": "client_wrong" },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body.code).toBe("invalid_api_key");
      const ok = await call(h, "GET", "/v1/merchants", {
        key: null,
        headers: { "App-Id": app.appId, "Client-Id": app.clientId },
      });
      expect(ok.status).toBe(200);
      expect(ok.body.data.map((m: { id: string }) => m.id)).toContain(h.mock.merchantId);
    });

    it("keys have the configured prefix; default `mock`", async () => {
      const h = await setup();
      expect(h.mock.keys.test).toMatch(/^mock_test_/);
      expect(h.mock.keys.live).toMatch(/^mock_/);
      expect(h.mock.keys.live).not.toMatch(/^mock_test_/);
      const h2 = await setup({ keyPrefix: "acme" });
      expect(h2.mock.keys.test).toMatch(/^acme_test_/);
      expect((await call(h2, "GET", "/v1/merchants")).status).toBe(200);
    });

    it("403 for a valid key of another account (merchant path and Merchant-Id header)", async () => {
      const h = await setup({ seed: TWO_ACCOUNTS });
      const r = await call(h, "GET", "/v1/merchants/mrch_bob", { key: "mock_test_alice" });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe("forbidden");
      const p = await call(h, "POST", "/v1/payments", {
        key: "mock_test_alice",
        merchantId: "mrch_bob",
        body: { referenceId: "o", amount: { unit: "iso4217/USD", value: "100" } },
      });
      expect(p.status).toBe(403);
      const bobPay = await call(h, "POST", "/v1/payments", {
        key: "mock_test_bob",
        merchantId: "mrch_bob",
        body: { referenceId: "o", amount: { unit: "iso4217/USD", value: "100" } },
      });
      expect(bobPay.status).toBe(201);
      const status = await call(h, "GET", `/v1/payments/${bobPay.body.id}/status`, {
        key: "mock_test_alice",
        merchantId: "mrch_alice",
      });
      expect(status.status).toBe(403);
    });
  });
}

/** Creating merchants: the answer, the Idempotency-Key it needs, replays. */
function merchantCreationContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: merchants`, () => {
    it("creates a merchant (201, active, iconUrl null, ISO ms timestamps) and reads it back", async () => {
      const h = await setup();
      const r = await call(h, "POST", "/v1/merchants", {
        idem: crypto.randomUUID(),
        body: { merchantName: "New Shop", merchantEmail: "shop@example.com" },
      });
      expect(r.status).toBe(201);
      expect(Object.keys(r.body.merchant).sort()).toEqual(["createdAt", "email", "id", "name", "status"]);
      expect(r.body.merchant).toMatchObject({
        name: "New Shop",
        email: "shop@example.com",
        status: "active",
      });
      expect(r.body.merchant.id).toMatch(/^mrch_/);
      expect(r.body.merchant.createdAt).toMatch(ISO_MS);
      const g = await call(h, "GET", `/v1/merchants/${r.body.merchant.id}`);
      expect(g.status).toBe(200);
      expect(g.body.merchant).toEqual({
        ...r.body.merchant,
        iconUrl: null,
        settlements: { crypto: [], fiat: [] },
      });
      const list = await call(h, "GET", "/v1/merchants");
      expect(list.body.data.map((m: { id: string }) => m.id)).toContain(r.body.merchant.id);
    });

    it("requires Idempotency-Key on creation (400 missing_idempotency_key)", async () => {
      const h = await setup();
      const r = await call(h, "POST", "/v1/merchants", {
        body: { merchantName: "X", merchantEmail: "x@example.com" },
      });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("missing_idempotency_key");
    });

    it("replays the same key, and refuses the same key with another body (422 idempotency_key_reused)", async () => {
      const h = await setup();
      const idem = crypto.randomUUID();
      const body = { merchantName: "Once", merchantEmail: "once@example.com" };
      const first = await call(h, "POST", "/v1/merchants", { idem, body });
      const second = await call(h, "POST", "/v1/merchants", { idem, body });
      expect(second.status).toBe(first.status);
      expect(second.body).toEqual(first.body);
      expect(second.headers.get("idempotent-replayed")).toBe("true");
      expect(h.mock.merchants.filter((m) => m.name === "Once")).toHaveLength(1);
      const reused = await call(h, "POST", "/v1/merchants", {
        idem,
        body: { ...body, merchantName: "Other" },
      });
      expect(reused.status).toBe(422);
      expect(reused.body.code).toBe("idempotency_key_reused");
      // Same key, other mode: its own scope.
      const live = await call(h, "POST", "/v1/merchants", { idem, key: h.mock.keys.live, body });
      expect(live.status).toBe(201);
      expect(live.body.merchant.id).not.toBe(first.body.merchant.id);
    });
  });
}

/** Malformed requests, unknown merchants and routes, test and live data kept apart, seeded merchants. */
function merchantLookupContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: merchants`, () => {
    it("400 with a clear body for malformed JSON, missing and invalid fields; 415 for non-JSON", async () => {
      const h = await setup();
      const bad = await call(h, "POST", "/v1/merchants", { idem: "k1", rawBody: '{"merchantName": ' });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe("invalid_json");
      const missing = await call(h, "POST", "/v1/merchants", {
        idem: "k2",
        body: { merchantEmail: "a@b.co" },
      });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ code: "invalid_request", details: { field: "merchantName" } });
      expect(missing.body.message).toContain("merchantName");
      const email = await call(h, "POST", "/v1/merchants", {
        idem: "k3",
        body: { merchantName: "A", merchantEmail: 5 },
      });
      expect(email.body.details.field).toBe("merchantEmail");
      const form = await call(h, "POST", "/v1/merchants", {
        idem: "k4",
        rawBody: "merchantName=A",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(form.status).toBe(415);
    });

    it("404 not_found for an unknown merchant; unknown routes 404, wrong method 405", async () => {
      const h = await setup();
      const r = await call(h, "GET", "/v1/merchants/mrch_missing");
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("not_found");
      // Asked of the core itself: through MSW an unknown path has no handler at all (see msw.test.ts).
      expect(
        (await h.mock.fetch(`${h.mock.baseUrl}/v1/nothing`, { headers: { "Api-Key": h.mock.keys.test } }))
          .status,
      ).toBe(404);
      expect((await call(h, "DELETE", "/v1/merchants")).status).toBe(405);
    });

    it("keeps test and live data apart", async () => {
      const h = await setup();
      const created = await call(h, "POST", "/v1/merchants", {
        idem: crypto.randomUUID(),
        body: { merchantName: "Test only", merchantEmail: "t@example.com" },
      });
      const id = created.body.merchant.id;
      const live = await call(h, "GET", `/v1/merchants/${id}`, { key: h.mock.keys.live });
      expect(live.status).toBe(404);
      const liveList = await call(h, "GET", "/v1/merchants", { key: h.mock.keys.live });
      expect(liveList.body.data.map((m: { id: string }) => m.id)).not.toContain(id);
      expect(liveList.body.data.map((m: { id: string }) => m.id)).toEqual([h.mock.liveMerchantId]);
      const pay = await call(h, "POST", "/v1/payments", {
        key: h.mock.keys.live,
        merchantId: h.mock.merchantId,
        body: { referenceId: "o", amount: { unit: "iso4217/USD", value: "1" } },
      });
      expect(pay.status).toBe(404);
    });

    it("seeded merchants carry icon URL and fiat settlements", async () => {
      const h = await setup({ seed: TWO_ACCOUNTS });
      const r = await call(h, "GET", "/v1/merchants/mrch_alice", { key: "mock_test_alice" });
      expect(r.body.merchant.iconUrl).toBe("https://cdn.example.com/alice.png");
      expect(r.body.merchant.settlements.fiat).toEqual([
        { id: "fiat_alice", status: "active", bankType: "iban" },
      ]);
      expect(h.mock.keys.test).toBe("mock_test_alice");
      expect(h.mock.merchantId).toBe("mrch_alice");
    });
  });
}

/** Crypto settlements: registering, listing, validating CAIP identifiers, updating. */
function cryptoSettlementsContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: crypto settlements`, () => {
    it("registers settlements, lists them, and rejects a duplicate asset (409 settlement_asset_conflict)", async () => {
      const h = await setup();
      const id = await newMerchant(h);
      const item = { asset: TEST_ASSET_BASE_SEPOLIA, destination: `eip155:84532:${ADDR}` };
      const r = await call(h, "POST", `/v1/merchants/${id}/settlements/crypto`, {
        body: { settlements: [item] },
      });
      expect(r.status).toBe(201);
      expect(r.body.crypto).toHaveLength(1);
      expect(r.body.crypto[0]).toMatchObject(item);
      expect(r.body.crypto[0].id).toMatch(/^crypto_/);
      const list = await call(h, "GET", `/v1/merchants/${id}/settlements`);
      expect(list.body).toEqual({ fiat: [], crypto: r.body.crypto });
      const dup = await call(h, "POST", `/v1/merchants/${id}/settlements/crypto`, {
        body: { settlements: [item] },
      });
      expect(dup.status).toBe(409);
      expect(dup.body.code).toBe("settlement_asset_conflict");
    });

    it("validates CAIP-19 / CAIP-10 and same chain (400)", async () => {
      const h = await setup();
      const id = await newMerchant(h);
      const path = `/v1/merchants/${id}/settlements/crypto`;
      const badAsset = await call(h, "POST", path, {
        body: { settlements: [{ asset: "usdc", destination: `eip155:84532:${ADDR}` }] },
      });
      expect(badAsset.status).toBe(400);
      expect(badAsset.body.details.field).toBe("settlements.0.asset");
      const badDest = await call(h, "POST", path, {
        body: { settlements: [{ asset: TEST_ASSET_BASE_SEPOLIA, destination: "0xabc" }] },
      });
      expect(badDest.status).toBe(400);
      const otherChain = await call(h, "POST", path, {
        body: { settlements: [{ asset: TEST_ASSET_BASE_SEPOLIA, destination: `eip155:1:${ADDR}` }] },
      });
      expect(otherChain.status).toBe(400);
      expect(otherChain.body.message).toContain("same chain");
      const empty = await call(h, "POST", path, { body: { settlements: [] } });
      expect(empty.status).toBe(400);
      expect(h.mock.getMerchant(id).settlements.crypto).toHaveLength(0);
    });

    it("updates a destination with PUT and honours Idempotency-Key on creation", async () => {
      const h = await setup();
      const id = await newMerchant(h);
      const idem = crypto.randomUUID();
      const body = { settlements: [{ asset: TEST_ASSET_BASE_SEPOLIA, destination: `eip155:84532:${ADDR}` }] };
      const a = await call(h, "POST", `/v1/merchants/${id}/settlements/crypto`, { idem, body });
      const b = await call(h, "POST", `/v1/merchants/${id}/settlements/crypto`, { idem, body });
      expect(b.status).toBe(201);
      expect(b.body).toEqual(a.body);
      const sid = a.body.crypto[0].id;
      const newDest = "eip155:84532:0x00000000000000000000000000000000000000Aa";
      const u = await call(h, "PUT", `/v1/merchants/${id}/settlements/crypto/${sid}`, {
        body: { destination: newDest },
      });
      expect(u.status).toBe(200);
      expect(u.body).toEqual({ id: sid, asset: TEST_ASSET_BASE_SEPOLIA, destination: newDest });
      const wrongChain = await call(h, "PUT", `/v1/merchants/${id}/settlements/crypto/${sid}`, {
        body: { destination: `eip155:1:${ADDR}` },
      });
      expect(wrongChain.status).toBe(400);
      const missing = await call(h, "PUT", `/v1/merchants/${id}/settlements/crypto/crypto_nope`, {
        body: { destination: newDest },
      });
      expect(missing.status).toBe(404);
    });
  });
}

/** Creating payments: Merchant-Id, the amount's rules, the created payment and its status. */
function paymentCreationContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: payments`, () => {
    it("needs Merchant-Id (400), and a known one (404)", async () => {
      const h = await setup();
      const body = { referenceId: "o", amount: { unit: "iso4217/USD", value: "100" } };
      const none = await call(h, "POST", "/v1/payments", { body });
      expect(none.status).toBe(400);
      expect(none.body.code).toBe("missing_merchant_id");
      const unknown = await call(h, "POST", "/v1/payments", { body, merchantId: "mrch_unknown" });
      expect(unknown.status).toBe(404);
      const statusNoHeader = await call(h, "GET", "/v1/payments/pay_x/status");
      expect(statusNoHeader.status).toBe(400);
    });

    it("validates the amount (400)", async () => {
      const h = await setup();
      for (const amount of [
        { unit: "USD", value: "1" },
        { unit: "iso4217/USD", value: 1 },
        { unit: "iso4217/USD", value: "1.5" },
        { unit: "iso4217/USD", value: "0" },
      ]) {
        const r = await call(h, "POST", "/v1/payments", {
          merchantId: h.mock.merchantId,
          body: { referenceId: "o", amount },
        });
        expect(r.status).toBe(400);
        expect(r.body.details.field).toBe("amount");
      }
      const noRef = await call(h, "POST", "/v1/payments", {
        merchantId: h.mock.merchantId,
        body: { amount: { unit: "iso4217/USD", value: "1" } },
      });
      expect(noRef.body.details.field).toBe("referenceId");
    });

    it("creates a payment with an id and a paymentLink; status follows the isFinal/pollInMs rule", async () => {
      const h = await setup({ pollInMs: 25 });
      const r = await call(h, "POST", "/v1/payments", {
        merchantId: h.mock.merchantId,
        body: { referenceId: "order-42", amount: { unit: "iso4217/USD", value: "1000" } },
      });
      expect(r.status).toBe(201);
      expect(r.body.id).toMatch(/^pay_/);
      expect(r.body.paymentLink).toBe(`${h.mock.baseUrl}/portal/${r.body.id}`);
      const s = await call(h, "GET", `/v1/payments/${r.body.id}/status`, { merchantId: h.mock.merchantId });
      expect(s.body).toEqual({ status: "requires_action", isFinal: false, pollInMs: 25 });
      h.mock.markProcessing(r.body.id);
      const p = await call(h, "GET", `/v1/payments/${r.body.id}/status`, { merchantId: h.mock.merchantId });
      expect(p.body).toEqual({ status: "processing", isFinal: false, pollInMs: 25 });
      h.mock.completePayment(r.body.id);
      const done = await call(h, "GET", `/v1/payments/${r.body.id}/status`, {
        merchantId: h.mock.merchantId,
      });
      expect(done.body).toEqual({
        status: "succeeded",
        isFinal: true,
        pollInMs: null,
        info: {
          txId: `test:${r.body.id}`,
          optionAmount: { unit: `caip19/${TEST_ASSET_BASE_SEPOLIA}`, value: "10000000" },
        },
      });
    });
  });
}

/** A payment's life: other merchants, failing, cancelling, expiring, live transaction hashes. */
function paymentLifecycleContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: payments`, () => {
    it("a payment of another merchant of the same account is 404", async () => {
      const h = await setup();
      const id = await createPayment(h);
      const other = await call(h, "POST", "/v1/merchants", {
        idem: crypto.randomUUID(),
        body: { merchantName: "Other", merchantEmail: "o@example.com" },
      });
      const r = await call(h, "GET", `/v1/payments/${id}/status`, { merchantId: other.body.merchant.id });
      expect(r.status).toBe(404);
      expect(
        (await call(h, "GET", "/v1/payments/pay_nope/status", { merchantId: h.mock.merchantId })).status,
      ).toBe(404);
    });

    it("fails, cancels, and refuses to cancel a final payment (409 payment_not_cancellable)", async () => {
      const h = await setup();
      const failed = await createPayment(h);
      h.mock.failPayment(failed);
      const fs = await call(h, "GET", `/v1/payments/${failed}/status`, { merchantId: h.mock.merchantId });
      expect(fs.body).toEqual({ status: "failed", isFinal: true, pollInMs: null });

      const id = await createPayment(h);
      const c = await call(h, "POST", `/v1/payments/${id}/cancel`, { merchantId: h.mock.merchantId });
      expect(c.status).toBe(200);
      expect(c.body).toEqual({
        cancelledAt: expect.stringMatching(ISO_MS),
        cancelledReason: "cancelled_by_merchant",
        paymentId: id,
        status: "cancelled",
      });
      const s = await call(h, "GET", `/v1/payments/${id}/status`, { merchantId: h.mock.merchantId });
      expect(s.body).toEqual({ status: "cancelled", isFinal: true, pollInMs: null });
      const again = await call(h, "POST", `/v1/payments/${id}/cancel`, { merchantId: h.mock.merchantId });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: "payment_not_cancellable", details: { status: "cancelled" } });
      const f = await call(h, "POST", `/v1/payments/${failed}/cancel`, { merchantId: h.mock.merchantId });
      expect(f.status).toBe(409);
      expect(() => h.mock.completePayment(id)).toThrow(/cannot become succeeded/);
    });

    it("expires after the configured time, measured by the mock clock", async () => {
      let clock = Date.UTC(2026, 0, 1);
      const h = await setup({ paymentTtlMs: 60_000, now: () => clock });
      const id = await createPayment(h);
      clock += 59_999;
      const before = await call(h, "GET", `/v1/payments/${id}/status`, { merchantId: h.mock.merchantId });
      expect(before.body.status).toBe("requires_action");
      h.mock.advanceTime(1);
      const after = await call(h, "GET", `/v1/payments/${id}/status`, { merchantId: h.mock.merchantId });
      expect(after.body).toEqual({ status: "expired", isFinal: true, pollInMs: null });
      const explicit = await createPayment(h);
      h.mock.expirePayment(explicit);
      expect(h.mock.getPayment(explicit).status).toBe("expired");
    });

    it("live mode uses a 0x transaction hash", async () => {
      const h = await setup();
      const id = await createPayment(h, "250", "USD", h.mock.keys.live);
      h.mock.completePayment(id);
      const r = await call(h, "GET", `/v1/payments/${id}/status`, {
        key: h.mock.keys.live,
        merchantId: h.mock.liveMerchantId ?? "",
      });
      expect(r.body.info.txId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(r.body.info.optionAmount.value).toBe("2500000");
    });
  });
}

/** The checkout flow: creation, the buyer's simulation, redirects. */
function checkoutFlowContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: checkout flow and portal`, () => {
    it("returns paymentId + gatewayUrl; the buyer simulation redirects with payment_id", async () => {
      const h = await setup();
      const c = await createCheckout(h, {
        successUrl: "https://shop.example/ok",
        errorUrl: "https://shop.example/err?x=1",
      });
      expect(c.paymentId).toMatch(/^pay_/);
      expect(c.gatewayUrl).toBe(`${h.mock.baseUrl}/portal/${c.paymentId}`);
      expect(h.mock.simulateBuyer(c.paymentId, { outcome: "success" })).toBe(
        `https://shop.example/ok?payment_id=${c.paymentId}`,
      );
      const s = await call(h, "GET", `/v1/merchant/payment/${c.paymentId}/status`, {
        merchantId: h.mock.merchantId,
      });
      expect(s.body.status).toBe("succeeded");
      expect(h.mock.getPayment(c.paymentId).history.map((x) => x.status)).toEqual([
        "requires_action",
        "processing",
        "succeeded",
      ]);
      const f = await createCheckout(h, {
        successUrl: "https://shop.example/ok",
        errorUrl: "https://shop.example/err?x=1",
      });
      expect(h.mock.simulateBuyer(f.paymentId, { outcome: "failure" })).toBe(
        `https://shop.example/err?x=1&payment_id=${f.paymentId}`,
      );
    });

    it("disables redirects for missing or non-HTTPS URLs; loopback HTTP is allowed unless turned off", async () => {
      const h = await setup();
      for (const checkout of [
        undefined,
        { successUrl: "http://shop.example/ok", errorUrl: "https://shop.example/e" },
        { successUrl: "nope", errorUrl: "nope" },
      ]) {
        const c = await createCheckout(h, checkout);
        expect(h.mock.simulateBuyer(c.paymentId, { outcome: "success" })).toBeNull();
      }
      const loop = await createCheckout(h, {
        successUrl: "http://127.0.0.1:3000/ok",
        errorUrl: "http://localhost:3000/err",
      });
      expect(h.mock.simulateBuyer(loop.paymentId, { outcome: "failure" })).toBe(
        `http://localhost:3000/err?payment_id=${loop.paymentId}`,
      );
      const strict = await setup({ allowLoopbackRedirects: false });
      const s = await createCheckout(strict, {
        successUrl: "http://127.0.0.1:3000/ok",
        errorUrl: "http://127.0.0.1:3000/e",
      });
      expect(strict.mock.simulateBuyer(s.paymentId, { outcome: "success" })).toBeNull();
    });
  });
}

/** The checkout portal's page and its buttons. */
function checkoutPortalContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: checkout flow and portal`, () => {
    it("serves the portal with merchant name, icon, amount and the stable element ids", async () => {
      const h = await setup({ seed: TWO_ACCOUNTS });
      const c = await createCheckout(h, {
        successUrl: "https://shop.example/ok",
        errorUrl: "https://shop.example/err",
      });
      const res = await fetch(c.gatewayUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      const page = await res.text();
      expect(page).toContain("Alice Shop");
      expect(page).toContain('src="https://cdn.example.com/alice.png"');
      expect(page).toContain("19.99 USD");
      for (const id of ["pay", "fail", "countdown", "status"]) expect(page).toContain(`id="${id}"`);
      expect(page).toContain("Pay with test wallet");
      expect(page).toContain(`https://shop.example/ok?payment_id=${c.paymentId}`);
      expect(page).not.toMatch(/<(link|img|script)[^>]+(src|href)="https?:\/\/(?!cdn\.example\.com)/);
      expect((await fetch(`${h.base}/portal/pay_unknown`)).status).toBe(404);
    });

    it("escapes a hostile merchant name and reference", async () => {
      const hostile = `</script><script>alert("x")</script><img src=x onerror=alert(1)>`;
      const h = await setup({
        seed: { accounts: [{ merchants: [{ name: hostile, iconUrl: 'javascript:alert(1)"' }] }] },
      });
      const r = await call(h, "POST", "/v1/merchant/payment", {
        merchantId: h.mock.merchantId,
        body: {
          referenceId: hostile,
          amount: { unit: "iso4217/USD", value: "100" },
          checkout: { successUrl: "https://a.example/</script>", errorUrl: "https://a.example/e" },
        },
      });
      const page = await (await fetch(r.body.gatewayUrl)).text();
      expect(page).not.toContain("<script>alert");
      expect(page).not.toContain("<img src=x");
      expect(page).not.toContain("javascript:alert");
      expect(page).toContain("&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)");
      expect(page.match(/<\/script>/g)).toHaveLength(2);
    });

    it("the portal's buttons endpoint drives the payment (control simulate)", async () => {
      const h = await setup();
      const c = await createCheckout(h, {
        successUrl: "https://shop.example/ok",
        errorUrl: "https://shop.example/err",
      });
      const r = await call(h, "POST", `/__mock/payments/${c.paymentId}/simulate`, {
        key: null,
        body: { outcome: "failure" },
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        status: "failed",
        redirectUrl: `https://shop.example/err?payment_id=${c.paymentId}`,
      });
      const again = await call(h, "POST", `/__mock/payments/${c.paymentId}/simulate`, {
        key: null,
        body: { outcome: "success" },
      });
      expect(again.status).toBe(409);
    });
  });
}

/** The gateway's wallet action (eth_signTypedData_v4). */
function gatewayFetchContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: gateway fetch`, () => {
    it("builds an eth_signTypedData_v4 ReceiveWithAuthorization for the option", async () => {
      const h = await setup({ seed: TWO_ACCOUNTS });
      const id = await createPayment(h, "1000");
      const options = h.mock.paymentOptions(id);
      expect(options).toEqual([
        expect.objectContaining({
          optionId: "crypto_alice_usdc",
          asset: TEST_ASSET_BASE_SEPOLIA,
          chainId: "eip155:84532",
          amount: { unit: `caip19/${TEST_ASSET_BASE_SEPOLIA}`, value: "10000000" },
        }),
      ]);
      const buyer = "0x00000000000000000000000000000000000000b1";
      const r = await call(h, "POST", `/v1/gateway/payment/${id}/fetch`, {
        body: { optionId: "crypto_alice_usdc", data: buyer },
      });
      expect(r.status).toBe(200);
      expect(r.body.actions).toHaveLength(1);
      const action = r.body.actions[0];
      expect(action.type).toBe("walletRpc");
      expect(action.data.chain_id).toBe("eip155:84532");
      expect(action.data.method).toBe("eth_signTypedData_v4");
      expect(action.data.params[0]).toBe(buyer);
      expect(typeof action.data.params[1]).toBe("string");
      const typed = JSON.parse(action.data.params[1]);
      expect(typed.primaryType).toBe("ReceiveWithAuthorization");
      expect(typed.domain).toEqual({
        name: "USDC",
        version: "2",
        chainId: 84532,
        verifyingContract: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      });
      expect(typed.types.EIP712Domain.map((f: { name: string }) => f.name)).toEqual([
        "name",
        "version",
        "chainId",
        "verifyingContract",
      ]);
      expect(typed.types.ReceiveWithAuthorization.map((f: { name: string }) => f.name)).toEqual([
        "from",
        "to",
        "value",
        "validAfter",
        "validBefore",
        "nonce",
      ]);
      expect(typed.message.from).toBe(buyer);
      expect(typed.message.to).toBe(ADDR);
      expect(typed.message.value).toBe("0x989680");
      expect(typed.message.validAfter).toMatch(/^0x[0-9a-f]+$/);
      expect(typed.message.validBefore).toMatch(/^0x[0-9a-f]+$/);
      expect(typed.message.nonce).toMatch(/^0x[0-9a-f]{64}$/);
      const s = await call(h, "GET", `/v1/payments/${id}/status`, {
        key: "mock_test_alice",
        merchantId: "mrch_alice",
      });
      expect(s.body.status).toBe("requires_action");
    });
  });
}

/** The gateway's defaults and refused options. */
function gatewayFetchOptionsContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: gateway fetch`, () => {
    it("defaults the option and buyer; rejects unknown options, bad data and final payments", async () => {
      const h = await setup();
      const id = await createPayment(h);
      const r = await call(h, "POST", `/v1/gateway/payment/${id}/fetch`, { body: {} });
      expect(r.status).toBe(200);
      expect(r.body.actions[0].data.params[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);
      const unknown = await call(h, "POST", `/v1/gateway/payment/${id}/fetch`, {
        body: { optionId: "crypto_nope" },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe("invalid_option_id");
      const badData = await call(h, "POST", `/v1/gateway/payment/${id}/fetch`, {
        body: { data: "not an address" },
      });
      expect(badData.status).toBe(400);
      h.mock.completePayment(id);
      const final = await call(h, "POST", `/v1/gateway/payment/${id}/fetch`, { body: {} });
      expect(final.status).toBe(409);
      expect(final.body.code).toBe("payment_not_actionable");
      expect((await call(h, "POST", "/v1/gateway/payment/pay_nope/fetch", { body: {} })).status).toBe(404);
      expect((await call(h, "POST", `/v1/gateway/payment/${id}/fetch`, { key: null, body: {} })).status).toBe(
        401,
      );
    });
  });
}

/** Injected faults: rate limits, server errors, latency, dropped connections, bad bodies. */
function faultKindsContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: faults`, () => {
    it("429 rate_limited with Retry-After, for the next N matching requests only", async () => {
      const h = await setup();
      h.mock.injectFault({ type: "rateLimit", times: 2, retryAfterSeconds: 3, path: "/v1/merchants" });
      const other = await call(h, "GET", `/v1/merchants/${h.mock.merchantId}`);
      expect(other.status).toBe(200);
      for (let i = 0; i < 2; i++) {
        const r = await call(h, "GET", "/v1/merchants");
        expect(r.status).toBe(429);
        expect(r.body.code).toBe("rate_limited");
        expect(r.headers.get("retry-after")).toBe("3");
      }
      expect((await call(h, "GET", "/v1/merchants")).status).toBe(200);
    });

    it("any 5xx, matching by method", async () => {
      const h = await setup();
      h.mock.injectFault({ type: "serverError", status: 503, method: "POST" });
      expect((await call(h, "GET", "/v1/merchants")).status).toBe(200);
      const r = await call(h, "POST", "/v1/merchants", {
        idem: "x",
        body: { merchantName: "A", merchantEmail: "a@b.co" },
      });
      expect(r.status).toBe(503);
      expect(r.body.code).toBe("service_unavailable");
      expect(h.mock.merchants.some((m) => m.name === "A")).toBe(false);
    });

    it("added latency", async () => {
      const h = await setup();
      h.mock.injectFault({ type: "latency", latencyMs: 60 });
      const start = performance.now();
      const r = await call(h, "GET", "/v1/merchants");
      expect(r.status).toBe(200);
      expect(performance.now() - start).toBeGreaterThanOrEqual(50);
    });

    it("a dropped connection rejects fetch", async () => {
      const h = await setup();
      h.mock.injectFault({ type: "drop" });
      await expect(
        fetch(`${h.base}/v1/merchants`, { headers: { "Api-Key": h.mock.keys.test } }),
      ).rejects.toThrow(TypeError);
      expect((await call(h, "GET", "/v1/merchants")).status).toBe(200);
    });

    it("malformed JSON and HTML bodies", async () => {
      const h = await setup();
      h.mock.injectFault({ type: "malformedJson" });
      const m = await call(h, "GET", "/v1/merchants");
      expect(m.status).toBe(200);
      expect(m.headers.get("content-type")).toContain("application/json");
      expect(() => JSON.parse(m.text)).toThrow();
      h.mock.injectFault({ type: "html" });
      const page = await call(h, "GET", "/v1/merchants");
      expect(page.status).toBe(502);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(page.text).toContain("<html");
    });
  });
}

/** Which requests a fault hits: after the operation, a seeded share, injected over HTTP. */
function faultTargetingContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: faults`, () => {
    it("after: true applies the operation and loses the answer; an idempotent retry gets the original", async () => {
      const h = await setup();
      h.mock.injectFault({ type: "drop", after: true, method: "POST", path: "/v1/merchants" });
      const idem = crypto.randomUUID();
      const body = { merchantName: "Retry Shop", merchantEmail: "r@example.com" };
      await expect(
        fetch(`${h.base}/v1/merchants`, {
          method: "POST",
          headers: {
            "Api-Key": h.mock.keys.test,
            "Idempotency-Key": idem,
            "Content-Type": "application/json",
          },
          body: JSON.stringify(body),
        }),
      ).rejects.toThrow(TypeError);
      expect(h.mock.merchants.filter((m) => m.name === "Retry Shop")).toHaveLength(1);
      const retry = await call(h, "POST", "/v1/merchants", { idem, body });
      expect(retry.status).toBe(201);
      expect(retry.body.merchant.id).toBe(h.mock.merchants.find((m) => m.name === "Retry Shop")?.id);
      expect(h.mock.merchants.filter((m) => m.name === "Retry Shop")).toHaveLength(1);

      h.mock.injectFault({ type: "serverError", after: true, path: "/v1/payments" });
      const pay = await call(h, "POST", "/v1/payments", {
        merchantId: h.mock.merchantId,
        idem: "pay-1",
        body: { referenceId: "o-1", amount: { unit: "iso4217/USD", value: "100" } },
      });
      expect(pay.status).toBe(500);
      expect(h.mock.payments).toHaveLength(1);
      const payRetry = await call(h, "POST", "/v1/payments", {
        merchantId: h.mock.merchantId,
        idem: "pay-1",
        body: { referenceId: "o-1", amount: { unit: "iso4217/USD", value: "100" } },
      });
      expect(payRetry.status).toBe(201);
      expect(payRetry.body.id).toBe(h.mock.payments[0]?.id);

      h.mock.injectFault({ type: "malformedJson", after: true });
      const cut = await call(h, "GET", "/v1/merchants");
      expect(cut.status).toBe(200);
      expect(cut.text.startsWith('{"data":[')).toBe(true);
      expect(() => JSON.parse(cut.text)).toThrow();
    });

    it("a share of requests with a seeded RNG is reproducible", async () => {
      const run = async (): Promise<number[]> => {
        const h = await setup({ randomSeed: 42 });
        h.mock.injectFault({ type: "serverError", rate: 0.5, path: "/v1/merchants*" });
        const out: number[] = [];
        for (let i = 0; i < 20; i++) out.push((await call(h, "GET", "/v1/merchants")).status);
        return out;
      };
      const a = await run();
      const b = await run();
      expect(a).toEqual(b);
      expect(a).toContain(500);
      expect(a).toContain(200);
    });

    it("faults can be injected and cleared over HTTP", async () => {
      const h = await setup();
      const add = await call(h, "POST", "/__mock/faults", {
        key: null,
        body: { type: "serverError", status: 502, path: "/v1/merch*" },
      });
      expect(add.status).toBe(201);
      expect((await call(h, "GET", "/v1/merchants")).status).toBe(502);
      await call(h, "POST", "/__mock/faults", { key: null, body: { type: "serverError", times: 5 } });
      await call(h, "DELETE", "/__mock/faults", { key: null });
      expect((await call(h, "GET", "/v1/merchants")).status).toBe(200);
    });
  });
}

/** The per-key rate limit budget, the version header, the request log. */
function rateLimitVersionLogContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: rate limit budget, version header, request log, controls`, () => {
    it("per-key budget: 429 rate_limited with Retry-After, then a new window", async () => {
      const h = await setup({ rateLimit: { limit: 2, windowMs: 10_000 } });
      expect((await call(h, "GET", "/v1/merchants")).status).toBe(200);
      expect((await call(h, "GET", "/v1/merchants")).status).toBe(200);
      const r = await call(h, "GET", "/v1/merchants");
      expect(r.status).toBe(429);
      expect(r.body.code).toBe("rate_limited");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(10);
      // Another key has its own budget.
      expect((await call(h, "GET", "/v1/merchants", { key: h.mock.keys.live })).status).toBe(200);
      h.mock.advanceTime(10_000);
      expect((await call(h, "GET", "/v1/merchants")).status).toBe(200);
    });

    it("records and echoes the version header; rejects a malformed one", async () => {
      const h = await setup({ versionHeader: "Acme-Version" });
      const ok = await call(h, "GET", "/v1/merchants", { headers: { "Acme-Version": "2026-02-19.preview" } });
      expect(ok.headers.get("acme-version")).toBe("2026-02-19.preview");
      const none = await call(h, "GET", "/v1/merchants");
      expect(none.headers.get("acme-version")).toBe("2026-02-19.preview");
      const bad = await call(h, "GET", "/v1/merchants", { headers: { "Acme-Version": "latest!" } });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe("invalid_api_version");
      expect(h.mock.requests.map((r) => r.version)).toEqual(["2026-02-19.preview", null, "latest!"]);
    });

    it("logs requests with the API key redacted", async () => {
      const h = await setup();
      await call(h, "POST", "/v1/merchants?x=1", {
        idem: "log-1",
        body: { merchantName: "Logged", merchantEmail: "l@example.com" },
      });
      await call(h, "GET", "/v1/merchants", { key: h.mock.keys.live });
      const [first, second] = h.mock.requests;
      expect(first).toMatchObject({
        method: "POST",
        path: "/v1/merchants",
        query: { x: "1" },
        body: { merchantName: "Logged", merchantEmail: "l@example.com" },
        status: 201,
        requestId: expect.stringMatching(/^req_/),
      });
      expect(first?.headers["api-key"]).toBe("mock_test_***");
      expect(first?.headers["idempotency-key"]).toBe("log-1");
      expect(second?.headers["api-key"]).toBe("mock_***");
      expect(JSON.stringify(h.mock.requests)).not.toContain(h.mock.keys.test);
      const overHttp = await call(h, "GET", "/__mock/requests", { key: null });
      expect(overHttp.body.data).toHaveLength(2);
      expect(overHttp.text).not.toContain(h.mock.keys.live);
    });
  });
}

/** The HTTP controls that drive payments and time, and reset. */
function httpControlsContract(t: MockTransport): void {
  const setup = t.setup;
  describe(`${t.name}: rate limit budget, version header, request log, controls`, () => {
    it("HTTP controls drive payments and time; reset keeps keys and ids", async () => {
      const h = await setup();
      const info = await call(h, "GET", "/__mock", { key: null });
      expect(info.body).toMatchObject({ merchantId: h.mock.merchantId, keys: { test: h.mock.keys.test } });
      const id = await createPayment(h);
      expect((await call(h, "POST", `/__mock/payments/${id}/processing`, { key: null })).body.status).toBe(
        "processing",
      );
      expect((await call(h, "POST", `/__mock/payments/${id}/complete`, { key: null })).body.status).toBe(
        "succeeded",
      );
      expect((await call(h, "POST", `/__mock/payments/${id}/fail`, { key: null })).status).toBe(409);
      const opts = await call(h, "GET", `/__mock/payments/${id}/options`, { key: null });
      expect(opts.body.data[0].optionId).toMatch(/^crypto_/);
      const id2 = await createPayment(h);
      await call(h, "POST", "/__mock/time/advance", { key: null, body: { ms: 16 * 60_000 } });
      expect(h.mock.getPayment(id2).status).toBe("expired");
      const keys = h.mock.keys;
      const merchantId = h.mock.merchantId;
      expect((await call(h, "POST", "/__mock/reset", { key: null })).status).toBe(200);
      expect(h.mock.payments).toHaveLength(0);
      expect(h.mock.keys).toEqual(keys);
      expect(h.mock.merchantId).toBe(merchantId);
      expect((await call(h, "GET", `/v1/merchants/${merchantId}`)).status).toBe(200);
    });
  });
}
