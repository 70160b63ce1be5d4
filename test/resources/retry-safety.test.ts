import { describe, expect, it } from "vitest";
import {
  type ClientOptions,
  ConnectionError,
  InternalServerError,
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

/** POSTs that create or change something and carry no idempotency key unless the caller gives one. */
const UNKEYED_POSTS: Array<[string, Call, () => Response]> = [
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

describe.each(UNKEYED_POSTS)("%s", (_name, call, ok) => {
  it("is not retried after a 503 without an idempotency key (the service may have acted)", async () => {
    mock.respond(apiError(503, "unavailable"), ok);
    const error = await failure(() => call(client({ maxRetries: 3 })));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(mock.requests).toHaveLength(1);
  });

  it("is not retried after a 500 or 502 without an idempotency key", async () => {
    mock.respond(apiError(500, "internal"), ok);
    expect(await failure(() => call(client({ maxRetries: 3 })))).toBeInstanceOf(InternalServerError);
    mock.respond(() => new Response("<html>Bad gateway</html>", { status: 502 }), ok);
    expect(await failure(() => call(client({ maxRetries: 3 })))).toBeInstanceOf(InternalServerError);
    expect(mock.requests).toHaveLength(2);
  });

  it("is not retried after a dropped connection without an idempotency key", async () => {
    mock.respond(networkError(), ok);
    const error = await failure(() => call(client({ maxRetries: 3 })));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(mock.requests).toHaveLength(1);
  });

  it("is retried after a 429 rate_limited refusal, even without a key", async () => {
    const retries: RetryEvent[] = [];
    mock.respond(apiError(429, "rate_limited"), ok);
    await call(client({ hooks: { onRetry: (event) => retries.push(event) } }));
    expect(mock.requests).toHaveLength(2);
    expect(retries.map((r) => r.reason)).toEqual(["rate_limited"]);
    expect(mock.requests.every((r) => !r.headers.has("idempotency-key"))).toBe(true);
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
