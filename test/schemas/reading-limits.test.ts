/**
 * Reading hostile answers from a raw loopback server (issue 21): every answer ends as one of the SDK's errors or a
 * correctly typed value, drift is reported once per field and capped per call, and the wallet link a buyer is sent
 * to is an https URL or a wallet URI, never a script or a picture.
 */
import { describe, expect, it } from "vitest";
import {
  type ClientOptions,
  type DriftEvent,
  type LogRecord,
  MerchantPaymentsClient,
  ResponseValidationError,
} from "../../src/index.js";
import { type Step, useFaultServer } from "../helpers/fault-server.js";
import { MERCHANT } from "../helpers/fixtures.js";
import { settle } from "../helpers/outcomes.js";
import { SECRET_KEY } from "../helpers/secrets.js";

const server = useFaultServer();

function client(options: ClientOptions = {}) {
  return new MerchantPaymentsClient({
    apiKey: SECRET_KEY,
    baseUrl: server.url,
    merchantId: "mrch_reading",
    maxRetries: 0,
    responseValidation: "tolerant",
    maxResponseBytes: 16 * 1024 * 1024,
    ...options,
  });
}

async function answering(
  body: unknown,
  call: (c: MerchantPaymentsClient) => Promise<unknown>,
  options?: ClientOptions,
) {
  await server.reset();
  server.script({ kind: "json", status: 200, body } satisfies Step);
  return settle(() => call(client(options)));
}

function rejection(result: Awaited<ReturnType<typeof settle>>): unknown {
  expect(result.ok).toBe(false);
  return (result as { error: unknown }).error;
}

describe("a status answer the polling cannot decide on ends as a ResponseValidationError, in tolerant mode too", () => {
  it.each([
    ["without status", { isFinal: false, pollInMs: 1 }],
    ["with status an object", { status: { value: "succeeded" }, isFinal: false, pollInMs: 1 }],
    ["with status a number", { status: 1, isFinal: true, pollInMs: null }],
  ])("waitForFinal on an answer %s", async (_label, body) => {
    const result = await answering(body, (c) =>
      // The deadline only bounds the test: the first answer already ends the wait.
      c.payments.waitForFinal("pay_1", { maxWaitMs: 10_000, minIntervalMs: 1, maxIntervalMs: 1 }),
    );
    const error = rejection(result);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.path)).toContain("status");
  });

  it("checkout.status too (the same result, on the checkout path)", async () => {
    const result = await answering({ isFinal: true, pollInMs: null }, (c) => c.checkout.status("pay_1"));
    expect(rejection(result)).toBeInstanceOf(ResponseValidationError);
  });
});

const CRYPTO = { asset: "eip155:8453/erc20:0xabc", destination: "eip155:8453:0xdef" };

describe("a wide answer reads in bounded work: drift grouped by field path, capped per call", () => {
  it("100,000 settlement items with a mistyped field: a typed value, one drift and the count not examined (no RangeError)", async () => {
    const crypto = Array.from({ length: 100_000 }, (_, i) => ({
      id: `crypto_${i}`,
      ...CRYPTO,
      destination: i,
    }));
    const drift: DriftEvent[] = [];
    const result = await answering(
      { fiat: [], crypto },
      (c) => c.settlements.list("mrch_1").then((list) => list.crypto.length),
      { hooks: { onDrift: (event) => drift.push(event) } },
    );
    expect(result).toEqual({ ok: true, value: 100_000 });
    expect(drift).toEqual([
      {
        operation: "GET /v1/merchants/mrch_1/settlements",
        path: "crypto.*.destination",
        expected: "a string",
        received: "0 (1000 times)",
      },
      {
        operation: "GET /v1/merchants/mrch_1/settlements",
        path: "crypto.*",
        expected: "at most 1000 items examined for deviations per answer once one deviates",
        received: "99000 more items, not examined",
      },
    ]);
  }, 60_000);

  it("strict: the same answer is one ResponseValidationError issue, and one that counts the items not examined", async () => {
    const crypto = Array.from({ length: 100_000 }, () => ({ ...CRYPTO }));
    const result = await answering({ fiat: [], crypto }, (c) => c.settlements.list("mrch_1"), {
      responseValidation: "strict",
    });
    const error = rejection(result) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues).toEqual([
      { path: "crypto.*.id", message: "is required (1000 times)" },
      { path: "crypto.*", message: "99000 more items: not examined for deviations" },
    ]);
  }, 60_000);

  it("30,000 items missing id: one drift event (and the count not examined), not 90,000", async () => {
    const items = Array.from({ length: 30_000 }, () => ({ ...CRYPTO }));
    const drift: DriftEvent[] = [];
    const warnings: LogRecord[] = [];
    const result = await answering({ merchant: merchantWith(items) }, (c) => c.merchants.retrieve("mrch_1"), {
      hooks: { onDrift: (event) => drift.push(event) },
      logger: { warn: (line) => warnings.push(line) },
    });
    expect(result.ok).toBe(true);
    expect(drift.map((event) => [event.path, event.received])).toEqual([
      ["merchant.settlements.crypto.*.id", "missing (1000 times)"],
      ["merchant.settlements.crypto.*", "29000 more items, not examined"],
    ]);
    expect(warnings).toHaveLength(2); // one per drift event
  }, 60_000);

  it("an answer that deviates everywhere: at most 20 drift events per call, and one that counts the rest", async () => {
    // Five wrong spellings of each of the six settlement fields: 30 distinct deviations.
    const odd = [undefined, 1, true, null, { nested: "x" }];
    const crypto = odd.map((value) => ({ id: value, asset: value, destination: value }));
    const fiat = odd.map((value) => ({ id: value, status: value, bankType: value }));
    const drift: DriftEvent[] = [];
    const result = await answering(
      { merchant: { ...merchantWith(crypto), settlements: { crypto, fiat } } },
      (c) => c.merchants.retrieve("mrch_1"),
      { hooks: { onDrift: (event) => drift.push(event) } },
    );
    expect(result.ok).toBe(true);
    expect(drift).toHaveLength(21);
    expect(drift.at(-1)).toMatchObject({ path: "", received: "10 more deviations, not reported" });
  });

  it("a single deviation keeps the path of its item", async () => {
    const drift: DriftEvent[] = [];
    await answering(
      { merchant: merchantWith([{ id: "crypto_1", ...CRYPTO }, { ...CRYPTO }]) },
      (c) => c.merchants.retrieve("mrch_1"),
      { hooks: { onDrift: (event) => drift.push(event) } },
    );
    expect(drift.map((event) => event.path)).toEqual(["merchant.settlements.crypto.1.id"]);
  });
});

function merchantWith(crypto: unknown[]) {
  return { ...MERCHANT, settlements: { crypto, fiat: [] } };
}

const AMOUNT = { unit: "iso4217/USD", value: "100" };
const createPayment = (c: MerchantPaymentsClient) =>
  c.payments.create({ referenceId: "order-1", amount: AMOUNT });

describe("the wallet link of payments.create: only https or a wallet URI, never a guess", () => {
  it.each([
    ["javascript:", { id: "pay_1", link: "javascript:alert(document.cookie)" }],
    ["data:", { id: "pay_1", paymentLink: "data:text/html,<script>alert(1)</script>" }],
    ["plain http to another host", { id: "pay_1", paymentUrl: "http://pay.example/p/1" }],
    ["a logo as the one other URL", { id: "pay_1", merchantLogoUrl: "https://cdn.example/logo.png" }],
    ["an icon as the one other URL", { id: "pay_1", iconUrl: "https://cdn.example/icon.svg" }],
    ["the echoed referenceId", { id: "pay_1", referenceId: "https://shop.example/orders/1" }],
    [
      "the echoed referenceId under another name",
      { id: "pay_1", ref: "https://shop.example/orders/1", referenceId: "https://shop.example/orders/1" },
    ],
  ])("refuses an answer whose only link is %s (tolerant mode too)", async (_label, body) => {
    const result = await answering(body, createPayment);
    const error = rejection(result) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((issue) => issue.path)).toEqual(["link"]);
  });

  it("takes the wallet link past a javascript: one and past a logo", async () => {
    const result = await answering(
      {
        id: "pay_1",
        link: "javascript:alert(1)",
        logoUrl: "https://cdn.example/l.png",
        hosted: "https://pay.example/p/1",
      },
      createPayment,
    );
    expect(result.ok && (result.value as { link: string }).link).toBe("https://pay.example/p/1");
  });

  it("accepts a wallet URI and a plain-http link to the local mock's own loopback host", async () => {
    const uri = "ethereum:0xa0b8@8453/transfer?address=0x1111&uint256=1050000";
    const byUri = await answering({ id: "pay_1", link: uri }, createPayment);
    expect(byUri.ok && (byUri.value as { link: string }).link).toBe(uri);
    const local = `${server.url}/portal/pay_1`;
    const byLoopback = await answering({ id: "pay_1", paymentLink: local }, createPayment);
    expect(byLoopback.ok && (byLoopback.value as { link: string }).link).toBe(local);
  });

  it("refuses an answer whose id and paymentId name two payments (tolerant mode too)", async () => {
    const result = await answering(
      { id: "pay_1", paymentId: "pay_2", paymentLink: "https://pay.example/p/pay_2" },
      createPayment,
    );
    const error = rejection(result) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues).toEqual([{ path: "paymentId", message: "must equal id when both are sent" }]);
  });
});

describe("every URL a buyer is sent to follows one rule: checkout.create's gatewayUrl as payments.create's link", () => {
  const createCheckout = (c: MerchantPaymentsClient) =>
    c.checkout.create({
      referenceId: "order-1",
      amount: AMOUNT,
      successUrl: "https://shop.example/ok",
      errorUrl: "https://shop.example/ko",
    });

  it.each([
    ["javascript:", "javascript:alert(document.cookie)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["plain http to a public host", "http://pay.example/p/1"],
    ["empty", ""],
    ["relative", "/portal/pay_1"],
    ["a wallet URI (a page is expected)", "ethereum:0xa0b8@8453/transfer?address=0x1111"],
    ["not a string", 42],
  ])("refuses a gatewayUrl that is %s, in strict and tolerant reading", async (_label, gatewayUrl) => {
    for (const responseValidation of ["strict", "tolerant"] as const) {
      const result = await answering({ paymentId: "pay_1", gatewayUrl }, createCheckout, {
        responseValidation,
      });
      const error = rejection(result) as ResponseValidationError;
      expect(error, responseValidation).toBeInstanceOf(ResponseValidationError);
      expect(error.issues.map((issue) => issue.path)).toEqual(["gatewayUrl"]);
    }
  });

  it("accepts an https gatewayUrl and the local mock's own loopback portal", async () => {
    for (const gatewayUrl of ["https://pay.example/portal/pay_1", `${server.url}/portal/pay_1`]) {
      const result = await answering({ paymentId: "pay_1", gatewayUrl }, createCheckout);
      expect(result.ok && (result.value as { gatewayUrl: string }).gatewayUrl).toBe(gatewayUrl);
    }
  });
});

describe("merchants.list items carry a typed id", () => {
  it("an item without a string id is refused in tolerant mode too (its id is passed on to retrieve)", async () => {
    const result = await answering({ data: [{ id: "mrch_1" }, { name: "no id" }] }, (c) =>
      c.merchants.list(),
    );
    const error = rejection(result) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((issue) => issue.path)).toEqual(["data.1.id"]);
  });

  it("other fields of an item are kept as sent", async () => {
    const result = await answering({ data: [{ id: "mrch_1", tier: { level: 2 } }] }, (c) =>
      c.merchants.list(),
    );
    expect(result.ok && (result.value as { data: unknown[] }).data).toEqual([
      { id: "mrch_1", tier: { level: 2 } },
    ]);
  });
});

describe("the settlement write answers (not shown by the document) are tolerated and typed where they can be", () => {
  const register = (c: MerchantPaymentsClient) =>
    c.settlements.createCrypto("mrch_1", [
      { asset: "eip155:1/slip44:60", destination: `eip155:1:0x${"ab".repeat(20)}` },
    ]);

  it("createCrypto reads the created settlements under crypto, and keeps what else came", async () => {
    const result = await answering({ crypto: [{ id: "crypto_1", ...CRYPTO }], batch: "b_1" }, register);
    expect(result).toMatchObject({
      ok: true,
      value: { crypto: [{ id: "crypto_1", ...CRYPTO }], batch: "b_1" },
    });
  });

  it.each(["strict", "tolerant"] as const)(
    "%s: createCrypto answered with no body resolves to undefined",
    async (mode) => {
      await server.reset();
      server.script({ kind: "text", status: 201, body: "" });
      await expect(register(client({ responseValidation: mode }))).resolves.toBeUndefined();
    },
  );

  it("updateCrypto types the destination it changed, and keeps what else came", async () => {
    const result = await answering({ id: "crypto_1", ...CRYPTO }, (c) =>
      c.settlements.updateCrypto("mrch_1", "crypto_1", { destination: `eip155:1:0x${"ab".repeat(20)}` }),
    );
    expect(result).toEqual({ ok: true, value: { id: "crypto_1", ...CRYPTO } });
  });
});
