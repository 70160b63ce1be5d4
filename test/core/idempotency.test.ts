/**
 * Idempotency under faults, against the mock service served over real HTTP: a creation whose first
 * attempt reached the service but whose answer was lost (the mock's `after: true` faults: the operation takes
 * effect, then the connection drops, a 5xx replaces the answer, or the answer comes too late) is retried under
 * the same Idempotency-Key and leaves exactly one record. Every POST carries a key (the SDK makes one when the
 * caller gives none), so every POST is retried so, and none acts twice.
 */
import { describe, expect, it } from "vitest";
import {
  ConnectionError,
  type MerchantPaymentsClient,
  type RequestOptions,
  ResponseValidationError,
} from "../../src/index.js";
import type { MockFaultSpec } from "../../src/testing/index.js";
import { testClient } from "../helpers/clients.js";
import { useMockServer } from "../helpers/mock-server.js";
import { settle } from "../helpers/outcomes.js";
import { passTime, waitUntil, withFakeTime } from "../helpers/time.js";

const ASSET = "eip155:1/erc20:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const DESTINATION = "eip155:1:0x000000000000000000000000000000000000dEaD";

const server = useMockServer();

function client(options: { timeoutMs?: number; maxRetries?: number } = {}) {
  return testClient(server().service, {
    timeoutMs: options.timeoutMs ?? 2_000,
    maxRetries: options.maxRetries ?? 2,
    retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 20 },
  });
}

/** The requests the service logged for a method and path. */
function logged(method: string, path: string) {
  return server().service.requests.filter((r) => r.method === method && r.path === path);
}

let seq = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++seq}`;

/** Answers lost after the service acted, and the client timeout that makes each one a lost answer. */
const LOST_ANSWERS: Array<[string, Omit<MockFaultSpec, "method" | "path">, number]> = [
  ["the connection drops", { type: "drop", after: true }, 2_000],
  ["a 503 replaces the answer", { type: "serverError", status: 503, after: true }, 2_000],
  ["a 502 HTML page replaces the answer", { type: "html", status: 502, after: true }, 2_000],
  ["the answer comes after the timeout", { type: "latency", latencyMs: 400, after: true }, 100],
];

/**
 * Runs `call`. For an answer that comes after the client's timeout (the mock's latency fault), on fake time, in the
 * order the test is about, whatever the machine's speed: the first attempt reaches the mock (which holds its answer),
 * then the client's timeout passes, then the retry's back-off (at most 5 ms), and the retry is answered at once.
 */
async function lateAnswerOnFakeTime<T>(
  fault: Omit<MockFaultSpec, "method" | "path">,
  path: string,
  timeoutMs: number,
  call: () => Promise<T>,
): Promise<T> {
  if (fault.type !== "latency") return call();
  return withFakeTime(async () => {
    const pending = call();
    await waitUntil(() => logged("POST", path).length > 0, "the first attempt reaching the mock");
    await passTime(timeoutMs);
    await passTime(10);
    return pending;
  });
}

describe("merchants.create: a lost answer is retried and leaves exactly one merchant", () => {
  it.each(LOST_ANSWERS)("when %s", async (_label, fault, timeoutMs) => {
    const name = unique("Lost Answer Shop");
    server().service.injectFault({ ...fault, method: "POST", path: "/v1/merchants" });
    const merchant = await lateAnswerOnFakeTime(fault, "/v1/merchants", timeoutMs, () =>
      client({ timeoutMs }).merchants.create({ name, email: "ops@shop.example" }),
    );

    const attempts = logged("POST", "/v1/merchants");
    expect(attempts).toHaveLength(2);
    expect(new Set(attempts.map((r) => r.headers["idempotency-key"])).size).toBe(1);
    expect(attempts[0]?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    const records = server().service.merchants.filter((m) => m.name === name);
    expect(records).toHaveLength(1);
    expect(merchant.id).toBe(records[0]?.id);
  });

  it("leaves one merchant when every attempt loses its answer, and throws the typed error", async () => {
    const name = unique("Always Lost Shop");
    server().service.injectFault({
      type: "drop",
      after: true,
      times: 3,
      method: "POST",
      path: "/v1/merchants",
    });
    const result = await settle(() => client().merchants.create({ name, email: "ops@shop.example" }));
    expect(result.ok).toBe(false);
    expect((result as { error: unknown }).error).toBeInstanceOf(ConnectionError);
    expect(logged("POST", "/v1/merchants")).toHaveLength(3);
    expect(server().service.merchants.filter((m) => m.name === name)).toHaveLength(1);
  });

  it("does not retry a 2xx answer cut in half, and a repeat under the caller's key returns the same merchant", async () => {
    const name = unique("Garbled Shop");
    const options: RequestOptions = { idempotencyKey: unique("merchant-key") };
    server().service.injectFault({
      type: "malformedJson",
      after: true,
      method: "POST",
      path: "/v1/merchants",
    });
    const first = await settle(() => client().merchants.create({ name, email: "ops@shop.example" }, options));
    expect((first as { error: unknown }).error).toBeInstanceOf(ResponseValidationError);
    expect(logged("POST", "/v1/merchants")).toHaveLength(1);

    const again = await client().merchants.create({ name, email: "ops@shop.example" }, options);
    const records = server().service.merchants.filter((m) => m.name === name);
    expect(records).toHaveLength(1);
    expect(again.id).toBe(records[0]?.id);
  });

  it("keeps every one of 30 concurrent creations single under a seeded 40 % lost-answer rate", async () => {
    server().service.injectFault({
      type: "drop",
      after: true,
      rate: 0.4,
      method: "POST",
      path: "/v1/merchants",
    });
    const sdk = client({ maxRetries: 10 });
    const names = Array.from({ length: 30 }, () => unique("Busy Shop"));
    const created = await Promise.all(
      names.map((name) => sdk.merchants.create({ name, email: "ops@shop.example" })),
    );
    for (const [i, name] of names.entries()) {
      const records = server().service.merchants.filter((m) => m.name === name);
      expect(records).toHaveLength(1);
      expect(created[i]?.id).toBe(records[0]?.id);
    }
    expect(logged("POST", "/v1/merchants").length).toBeGreaterThan(30);
  });
});

describe("settlements.createCrypto: a lost answer is retried and registers the asset once", () => {
  it.each(LOST_ANSWERS)("when %s", async (_label, fault, timeoutMs) => {
    const merchant = await client().merchants.create({ name: unique("Settling Shop"), email: "a@b.example" });
    const path = `/v1/merchants/${merchant.id}/settlements/crypto`;
    server().service.injectFault({ ...fault, method: "POST", path });
    const result = await lateAnswerOnFakeTime(fault, path, timeoutMs, () =>
      client({ timeoutMs }).settlements.createCrypto(merchant.id, [
        { asset: ASSET, destination: DESTINATION },
      ]),
    );

    const attempts = logged("POST", path);
    expect(attempts).toHaveLength(2);
    expect(new Set(attempts.map((r) => r.headers["idempotency-key"])).size).toBe(1);
    const crypto = server().service.getMerchant(merchant.id).settlements.crypto;
    expect(crypto.filter((s) => s.asset === ASSET)).toHaveLength(1);
    expect(result).toEqual({ crypto: [expect.objectContaining({ asset: ASSET, destination: DESTINATION })] });
  });
});

describe("a POST the caller gives no key is retried under a key of its own, and acts once", () => {
  async function payment() {
    const created = await client().payments.create({
      referenceId: unique("order"),
      amount: { unit: "iso4217/USD", value: "1999" },
    });
    server().service.clearRequests();
    return created.id;
  }

  const POSTS: Array<{
    name: string;
    path(paymentId: string): string;
    call(sdk: MerchantPaymentsClient, paymentId: string, referenceId: string): Promise<unknown>;
    /** Records the call leaves behind (created payments with the reference, or the cancellation). */
    effects(paymentId: string, referenceId: string): number;
  }> = [
    {
      name: "payments.create",
      path: () => "/v1/payments",
      call: (sdk, _id, referenceId) =>
        sdk.payments.create({ referenceId, amount: { unit: "iso4217/USD", value: "500" } }),
      effects: (_id, referenceId) =>
        server().service.payments.filter((p) => p.referenceId === referenceId).length,
    },
    {
      name: "checkout.create",
      path: () => "/v1/merchant/payment",
      call: (sdk, _id, referenceId) =>
        sdk.checkout.create({
          referenceId,
          amount: { unit: "iso4217/EUR", value: "500" },
          successUrl: "https://shop.example/ok",
          errorUrl: "https://shop.example/ko",
        }),
      effects: (_id, referenceId) =>
        server().service.payments.filter((p) => p.referenceId === referenceId).length,
    },
    {
      name: "payments.cancel",
      path: (id) => `/v1/payments/${id}/cancel`,
      call: (sdk, id) => sdk.payments.cancel(id),
      effects: (id) =>
        server()
          .service.getPayment(id)
          .history.filter((h) => h.status === "cancelled").length,
    },
    {
      name: "gateway.fetchAction",
      path: (id) => `/v1/gateway/payment/${id}/fetch`,
      call: (sdk, id) => sdk.gateway.fetchAction(id),
      effects: () => 1,
    },
  ];
  const FAULTS: Array<[string, Omit<MockFaultSpec, "method" | "path">]> = [
    ["the connection drops after the service acted", { type: "drop", after: true }],
    ["a 503 after the service acted", { type: "serverError", status: 503, after: true }],
    ["a 500 before the service acted", { type: "serverError", status: 500 }],
  ];
  const CASES = POSTS.flatMap((op) => FAULTS.map((f) => [op.name, f[0], op, f[1]] as const));

  it.each(CASES)("%s: %s", async (_op, _fault, op, fault) => {
    const paymentId = await payment();
    const referenceId = unique("order");
    const path = op.path(paymentId);
    server().service.injectFault({ ...fault, method: "POST", path });
    await op.call(client({ maxRetries: 5 }), paymentId, referenceId);
    const attempts = logged("POST", path);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(attempts.map((r) => r.headers["idempotency-key"])).size).toBe(1);
    expect(op.effects(paymentId, referenceId)).toBe(1);
  });

  it("payments.create under the caller's key is retried after a lost answer and creates one payment", async () => {
    const referenceId = unique("order");
    server().service.injectFault({ type: "drop", after: true, method: "POST", path: "/v1/payments" });
    const created = await client().payments.create(
      { referenceId, amount: { unit: "iso4217/USD", value: "700" } },
      { idempotencyKey: unique("payment-key") },
    );
    expect(logged("POST", "/v1/payments")).toHaveLength(2);
    const records = server().service.payments.filter((p) => p.referenceId === referenceId);
    expect(records.map((p) => p.id)).toEqual([created.id]);
  });

  it("payments.create without a key is repeated after a rate-limit refusal, and creates one payment", async () => {
    const referenceId = unique("order");
    server().service.injectFault({
      type: "rateLimit",
      retryAfterSeconds: 0,
      method: "POST",
      path: "/v1/payments",
    });
    const created = await client().payments.create({
      referenceId,
      amount: { unit: "iso4217/USD", value: "700" },
    });
    expect(logged("POST", "/v1/payments")).toHaveLength(2);
    expect(
      server()
        .service.payments.filter((p) => p.referenceId === referenceId)
        .map((p) => p.id),
    ).toEqual([created.id]);
  });
});
