import { describe, expect, it } from "vitest";
import {
  type ClientOptions,
  type MerchantPaymentsClient,
  RateLimitError,
  type RequestOptions,
  type RetryEvent,
} from "../../src/index.js";
import { failure } from "../helpers/assertions.js";
import { testClient } from "../helpers/clients.js";
import { CANCELLED, CREATED_MERCHANT, DEST_BASE, pending, USDC_BASE } from "../helpers/fixtures.js";
import { apiError, json, networkError, useRecordingServer } from "../helpers/recording-server.js";

const mock = useRecordingServer();
const client = (options: ClientOptions = {}) => testClient({ merchantId: "mrch_1", ...options });

const AMOUNT = { unit: "iso4217/USD", value: "1050" };
const URLS = { successUrl: "https://shop.example/ok", errorUrl: "https://shop.example/ko" };

type Call = (c: MerchantPaymentsClient, options?: RequestOptions) => Promise<unknown>;

/** POSTs that create or change something, called without a key: the SDK makes one. */
const POSTS: Array<[string, Call, () => Response]> = [
  [
    "payments.create",
    (c, o) => c.payments.create({ referenceId: "order-1", amount: AMOUNT }, o),
    json({ id: "pay_1", link: "https://wallet.example/pay/pay_1" }),
  ],
  [
    "checkout.create",
    (c, o) => c.checkout.create({ referenceId: "order-1", amount: AMOUNT, ...URLS }, o),
    json({ paymentId: "pay_1", gatewayUrl: "https://portal.example/pay_1" }),
  ],
  ["payments.cancel", (c, o) => c.payments.cancel("pay_1", o), json(CANCELLED)],
  [
    "gateway.fetchAction",
    (c, o) => c.gateway.fetchAction("pay_1", { optionId: "opt_1" }, o),
    json({ actions: [] }),
  ],
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(POSTS)("%s", (_name, call, ok) => {
  it("without a key of the caller's, carries one of its own: the same on every attempt, new for each call", async () => {
    mock.respond(apiError(503, "unavailable"), networkError(), ok);
    await call(client({ maxRetries: 3 }));
    expect(mock.requests).toHaveLength(3);
    const keys = mock.requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(mock.requests.map((r) => r.body)).size).toBe(1);
    mock.respond(ok);
    await call(client());
    expect(mock.requests[3]?.headers.get("idempotency-key")).not.toBe(keys[0]);
  });

  it("is retried after a 500 or a proxy's 502 page, under its key: the service replays instead of acting twice", async () => {
    mock.respond(
      apiError(500, "internal"),
      () => new Response("<html>Bad gateway</html>", { status: 502 }),
      ok,
    );
    await call(client({ maxRetries: 3 }));
    expect(mock.requests).toHaveLength(3);
    expect(new Set(mock.requests.map((r) => r.headers.get("idempotency-key"))).size).toBe(1);
  });

  it("is retried after a 429 rate_limited body, with the same key", async () => {
    const retries: RetryEvent[] = [];
    mock.respond(apiError(429, "rate_limited"), ok);
    await call(client({ hooks: { onRetry: (event) => retries.push(event) } }));
    expect(mock.requests).toHaveLength(2);
    expect(retries.map((r) => r.reason)).toEqual(["rate_limited"]);
    const [first, second] = mock.requests.map((r) => r.headers.get("idempotency-key"));
    expect(first).toMatch(UUID);
    expect(second).toBe(first);
    expect(mock.requests[1]?.body).toBe(mock.requests[0]?.body);
  });

  it("is retried after a rate_limited body of another status", async () => {
    mock.respond(apiError(400, "rate_limited"), ok);
    await call(client());
    expect(mock.requests).toHaveLength(2);
  });

  it("gives up on rate limiting after maxRetries with a RateLimitError", async () => {
    mock.respond(apiError(429, "rate_limited", { "Retry-After": "0" }));
    const error = await failure(() => call(client({ maxRetries: 2 })));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(mock.requests).toHaveLength(3);
  });

  it("with options.idempotencyKey is retried after 503 and a dropped connection, with the same key and body", async () => {
    mock.respond(apiError(503, "unavailable"), networkError(), ok);
    await call(client(), { idempotencyKey: "order-1-attempt-1" });
    expect(mock.requests).toHaveLength(3);
    expect(mock.requests.map((r) => r.headers.get("idempotency-key"))).toEqual([
      "order-1-attempt-1",
      "order-1-attempt-1",
      "order-1-attempt-1",
    ]);
    expect(new Set(mock.requests.map((r) => r.body)).size).toBe(1);
  });

  it("with options.idempotencyKey still stops at maxRetries", async () => {
    mock.respond(apiError(503, "unavailable"));
    await failure(() => call(client({ maxRetries: 1 }), { idempotencyKey: "k-1" }));
    expect(mock.requests).toHaveLength(2);
  });
});

describe("operations that are safe to repeat are retried after a 503 and a dropped connection", () => {
  const SAFE: Array<[string, Call, () => Response]> = [
    ["payments.status", (c) => c.payments.status("pay_1"), json(pending("processing", 1))],
    ["checkout.status", (c) => c.checkout.status("pay_1"), json(pending("processing", 1))],
    ["merchants.list", (c) => c.merchants.list(), json({ data: [] })],
    ["settlements.list", (c) => c.settlements.list("mrch_1"), json({ fiat: [], crypto: [] })],
    [
      "settlements.updateCrypto (PUT)",
      (c) => c.settlements.updateCrypto("mrch_1", "crypto_1", { destination: DEST_BASE }),
      json({}),
    ],
    [
      "merchants.create (automatic key)",
      (c) => c.merchants.create({ name: "Shop", email: "billing@shop.example" }),
      json(CREATED_MERCHANT),
    ],
    [
      "settlements.createCrypto (automatic key)",
      (c) => c.settlements.createCrypto("mrch_1", [{ asset: USDC_BASE, destination: DEST_BASE }]),
      json({}),
    ],
  ];
  it.each(SAFE)("%s", async (_name, call, ok) => {
    mock.respond(apiError(503, "unavailable"), networkError(), ok);
    await call(client());
    expect(mock.requests).toHaveLength(3);
    const keys = new Set(mock.requests.map((r) => r.headers.get("idempotency-key")));
    expect(keys.size).toBe(1);
  });
});
