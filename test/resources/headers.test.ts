import { describe, expect, it } from "vitest";
import {
  type ClientOptions,
  InputValidationError,
  type MerchantPaymentsClient,
  type RequestOptions,
} from "../../src/index.js";
import { failure } from "../helpers/assertions.js";
import { DEFAULT_MERCHANT_ID as DEFAULT_MERCHANT, testClient } from "../helpers/clients.js";
import { CANCELLED, CREATED_MERCHANT, DEST_BASE, MERCHANT, pending, USDC_BASE } from "../helpers/fixtures.js";
import { json, TEST_KEY, useRecordingServer } from "../helpers/recording-server.js";

const mock = useRecordingServer();

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const client = (options: ClientOptions = {}) => testClient({ merchantId: DEFAULT_MERCHANT, ...options });
const PROCESSING = pending("processing", 1000);
const AMOUNT = { unit: "iso4217/USD", value: "1050" };
const URLS = { successUrl: "https://shop.example/ok", errorUrl: "https://shop.example/ko" };

interface Operation {
  name: string;
  /** Payment and checkout operations carry Merchant-Id. */
  merchantScoped: boolean;
  /** Sent with a JSON body (and so with Content-Type). */
  hasBody: boolean;
  /** Sent with an Idempotency-Key even when the caller gives none: every POST. */
  alwaysIdempotent: boolean;
  call: (c: MerchantPaymentsClient, options?: RequestOptions) => Promise<unknown>;
  answer: () => Response;
}

const OPERATIONS: Operation[] = [
  {
    name: "merchants.list",
    merchantScoped: false,
    hasBody: false,
    alwaysIdempotent: false,
    call: (c, o) => c.merchants.list(undefined, o),
    answer: json({ data: [] }),
  },
  {
    name: "merchants.create",
    merchantScoped: false,
    hasBody: true,
    alwaysIdempotent: true,
    call: (c, o) => c.merchants.create({ name: "Shop", email: "billing@shop.example" }, o),
    answer: json(CREATED_MERCHANT),
  },
  {
    name: "merchants.retrieve",
    merchantScoped: false,
    hasBody: false,
    alwaysIdempotent: false,
    call: (c, o) => c.merchants.retrieve("mrch_1", o),
    answer: json({ merchant: MERCHANT }),
  },
  {
    name: "settlements.list",
    merchantScoped: false,
    hasBody: false,
    alwaysIdempotent: false,
    call: (c, o) => c.settlements.list("mrch_1", o),
    answer: json({ fiat: [], crypto: [] }),
  },
  {
    name: "settlements.createCrypto",
    merchantScoped: false,
    hasBody: true,
    alwaysIdempotent: true,
    call: (c, o) => c.settlements.createCrypto("mrch_1", [{ asset: USDC_BASE, destination: DEST_BASE }], o),
    answer: json({}),
  },
  {
    name: "settlements.updateCrypto",
    merchantScoped: false,
    hasBody: true,
    alwaysIdempotent: false,
    call: (c, o) => c.settlements.updateCrypto("mrch_1", "crypto_1", { destination: DEST_BASE }, o),
    answer: json({}),
  },
  {
    name: "payments.create",
    merchantScoped: true,
    hasBody: true,
    alwaysIdempotent: true,
    call: (c, o) => c.payments.create({ referenceId: "order-1", amount: AMOUNT }, o),
    answer: json({ id: "pay_1", link: "https://wallet.example/pay_1" }),
  },
  {
    name: "payments.status",
    merchantScoped: true,
    hasBody: false,
    alwaysIdempotent: false,
    call: (c, o) => c.payments.status("pay_1", o),
    answer: json(PROCESSING),
  },
  {
    name: "payments.cancel",
    merchantScoped: true,
    hasBody: false,
    alwaysIdempotent: true,
    call: (c, o) => c.payments.cancel("pay_1", o),
    answer: json(CANCELLED),
  },
  {
    name: "checkout.create",
    merchantScoped: true,
    hasBody: true,
    alwaysIdempotent: true,
    call: (c, o) => c.checkout.create({ referenceId: "order-1", amount: AMOUNT, ...URLS }, o),
    answer: json({ paymentId: "pay_1", gatewayUrl: "https://portal.example/pay_1" }),
  },
  {
    name: "checkout.status",
    merchantScoped: true,
    hasBody: false,
    alwaysIdempotent: false,
    call: (c, o) => c.checkout.status("pay_1", o),
    answer: json(PROCESSING),
  },
  {
    name: "gateway.fetchAction",
    merchantScoped: false,
    hasBody: true,
    alwaysIdempotent: true,
    call: (c, o) => c.gateway.fetchAction("pay_1", { optionId: "opt_1" }, o),
    answer: json({ actions: [] }),
  },
];

const scoped = OPERATIONS.filter((op) => op.merchantScoped);
const unscoped = OPERATIONS.filter((op) => !op.merchantScoped);
const byName = (ops: Operation[]) => ops.map((op) => [op.name, op] as const);

describe("credentials", () => {
  it.each(byName(OPERATIONS))("%s sends the API key", async (_name, op) => {
    mock.respond(op.answer);
    await op.call(client());
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]?.headers.get("api-key")).toBe(TEST_KEY);
  });
});

describe("Merchant-Id", () => {
  it.each(byName(scoped))("%s sends the client's default Merchant-Id", async (_name, op) => {
    mock.respond(op.answer);
    await op.call(client());
    expect(mock.requests[0]?.headers.get("merchant-id")).toBe(DEFAULT_MERCHANT);
  });

  it.each(byName(scoped))("%s sends options.merchantId instead of the default", async (_name, op) => {
    mock.respond(op.answer);
    await op.call(client(), { merchantId: "mrch_other" });
    expect(mock.requests[0]?.headers.get("merchant-id")).toBe("mrch_other");
  });

  it.each(byName(scoped))("%s works with only a per-call merchantId", async (_name, op) => {
    mock.respond(op.answer);
    await op.call(client({ merchantId: undefined }), { merchantId: "mrch_call" });
    expect(mock.requests[0]?.headers.get("merchant-id")).toBe("mrch_call");
  });

  it.each(byName(scoped))(
    "%s without any merchantId is an InputValidationError and sends nothing",
    async (_name, op) => {
      mock.respond(op.answer);
      const error = await failure(() => op.call(client({ merchantId: undefined })));
      expect(error).toBeInstanceOf(InputValidationError);
      expect((error as InputValidationError).field).toBe("merchantId");
      expect(mock.requests).toHaveLength(0);
    },
  );

  it.each(byName(scoped))("%s refuses an empty per-call merchantId and sends nothing", async (_name, op) => {
    const error = await failure(() => op.call(client(), { merchantId: "" }));
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).field).toBe("options.merchantId");
    expect(mock.requests).toHaveLength(0);
  });

  it.each(byName(unscoped))("%s never sends Merchant-Id, even with one configured", async (_name, op) => {
    mock.respond(op.answer);
    await op.call(client(), { merchantId: "mrch_other" });
    expect(mock.requests[0]?.headers.has("merchant-id")).toBe(false);
  });

  it.each(byName(unscoped))("%s needs no merchantId", async (_name, op) => {
    mock.respond(op.answer);
    await op.call(client({ merchantId: undefined }));
    expect(mock.requests).toHaveLength(1);
  });
});

describe("Idempotency-Key", () => {
  it.each(byName(OPERATIONS.filter((op) => op.alwaysIdempotent)))(
    "%s (a POST) always sends a fresh UUID v4 key",
    async (_name, op) => {
      mock.respond(op.answer);
      await op.call(client());
      await op.call(client());
      const keys = mock.requests.map((r) => r.headers.get("idempotency-key"));
      for (const key of keys) expect(key).toMatch(UUID_V4);
      expect(keys[0]).not.toBe(keys[1]);
    },
  );

  it.each(byName(OPERATIONS.filter((op) => !op.alwaysIdempotent)))(
    "%s sends no key unless one is given",
    async (_name, op) => {
      mock.respond(op.answer);
      await op.call(client());
      expect(mock.requests[0]?.headers.has("idempotency-key")).toBe(false);
    },
  );

  it.each(byName(OPERATIONS))("%s sends options.idempotencyKey as given", async (_name, op) => {
    mock.respond(op.answer);
    await op.call(client(), { idempotencyKey: "order-42-attempt" });
    expect(mock.requests[0]?.headers.get("idempotency-key")).toBe("order-42-attempt");
  });
});

describe("Content-Type", () => {
  it.each(byName(OPERATIONS))("%s sends Content-Type exactly when it sends a body", async (_name, op) => {
    mock.respond(op.answer);
    await op.call(client());
    const [request] = mock.requests;
    if (op.hasBody) {
      expect(request?.headers.get("content-type")).toBe("application/json");
      expect(() => JSON.parse(request?.body ?? "")).not.toThrow();
    } else {
      expect(request?.headers.has("content-type")).toBe(false);
      expect(request?.body).toBe("");
    }
  });
});

describe("bad input is a rejected promise, never a synchronous throw", () => {
  // A caller writing `client.payments.create(x).catch(handle)` relies on getting a promise back.
  const bad: Array<[string, (c: MerchantPaymentsClient) => Promise<unknown>]> = [
    ["merchants.create", (c) => c.merchants.create({ name: "", email: "billing@shop.example" })],
    ["merchants.retrieve", (c) => c.merchants.retrieve("")],
    ["settlements.list", (c) => c.settlements.list("")],
    ["settlements.createCrypto", (c) => c.settlements.createCrypto("mrch_1", [])],
    [
      "settlements.updateCrypto",
      (c) => c.settlements.updateCrypto("mrch_1", "..", { destination: DEST_BASE }),
    ],
    ["payments.create", (c) => c.payments.create({ referenceId: "o", amount: { unit: "usd", value: "1" } })],
    ["payments.status", (c) => c.payments.status("")],
    ["payments.cancel", (c) => c.payments.cancel(".")],
    [
      "checkout.create",
      (c) => c.checkout.create({ referenceId: "o", amount: AMOUNT, ...URLS, errorUrl: "/ko" }),
    ],
    ["checkout.status", (c) => c.checkout.status("")],
    ["gateway.fetchAction", (c) => c.gateway.fetchAction("", {})],
  ];
  it.each(bad)("%s", async (_name, call) => {
    let promise: Promise<unknown> | undefined;
    let thrown: unknown;
    try {
      promise = call(client());
    } catch (error) {
      thrown = error;
    }
    expect(thrown, "threw synchronously instead of returning a rejected promise").toBeUndefined();
    await expect(promise).rejects.toBeInstanceOf(InputValidationError);
    expect(mock.requests).toHaveLength(0);
  });
});
