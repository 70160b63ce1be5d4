/**
 * Bad input (property-based): every accepted amount, currency code, CAIP-19 asset, CAIP-10 account,
 * URL and id is sent exactly as the spec wants; every rejected one throws InputValidationError naming the field,
 * and nothing is sent.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromMinorUnits, InputValidationError, type RequestOptions, toMinorUnits } from "../../src/index.js";
import { ISO4217_CURRENCY_CODES } from "../../src/money.js";
import { testClient } from "../helpers/clients.js";
import { settle } from "../helpers/outcomes.js";
import { json, useRecordingServer } from "../helpers/recording-server.js";
import { SECRET_KEY } from "../helpers/secrets.js";

const mock = useRecordingServer();
const RUNS = { numRuns: 100 };
const sdk = testClient({ apiKey: SECRET_KEY, merchantId: "mrch_input", maxRetries: 0 });

/** Runs a call with the request log cleared; returns what happened and the requests it made. */
async function send(call: () => Promise<unknown>) {
  mock.requests.length = 0;
  const result = await settle(call);
  return { result, requests: [...mock.requests] };
}

/** The call was refused before sending, with an InputValidationError naming `field`. */
async function expectRefused(call: () => Promise<unknown>, field: string | RegExp) {
  const { result, requests } = await send(call);
  expect(result.ok).toBe(false);
  const error = (result as { error: unknown }).error;
  expect(error).toBeInstanceOf(InputValidationError);
  const named = (error as InputValidationError).field;
  if (typeof field === "string") expect(named).toBe(field);
  else expect(named).toMatch(field);
  expect((error as Error).message).toContain(named);
  expect(requests).toHaveLength(0);
}

/** The call was sent once; returns the request. */
async function expectSent(call: () => Promise<unknown>) {
  const { result, requests } = await send(call);
  if (!result.ok) expect(result.error).not.toBeInstanceOf(InputValidationError);
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

// ---------------------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------------------

const minorUnits = fc.oneof(fc.constant("0"), fc.stringMatching(/^[1-9][0-9]{0,40}$/));
// A payment asks for more than nothing, in at most 30 digits (the rule the mock shares: validate/rules.ts).
const paymentMinorUnits = fc.stringMatching(/^[1-9][0-9]{0,29}$/);
const currency = fc.constantFrom(...ISO4217_CURRENCY_CODES);
const badMinorUnits = fc.oneof(
  fc.string().filter((s) => !/^(0|[1-9][0-9]*)$/.test(s)),
  fc.constantFrom("", "-1", "+1", "01", "1.5", "1e3", " 1", "1 ", "0x10", "١٢", "NaN", "Infinity"),
  fc.integer(),
  fc.double(),
  fc.bigInt(),
  fc.constantFrom(null, undefined, true, {}, []),
);
const badUnit = fc.oneof(
  fc.string().filter((s) => !/^iso4217\/[A-Z]{3}$/.test(s)),
  currency.map((c) => c.toLowerCase()).map((c) => `iso4217/${c}`),
  fc.stringMatching(/^[A-Z]{2}$|^[A-Z]{4}$/).map((c) => `iso4217/${c}`),
  fc.constantFrom("BTC", "XAU", "XTS", "XXX", "QQQ").map((c) => `iso4217/${c}`), // not a currency (money.ts)
  currency, // the code without its iso4217/ prefix
  currency.map((c) => `caip19/${c}`),
);

const NS = /^[-a-z0-9]{3,8}$/;
const namespace = fc.stringMatching(NS);
const chainRef = fc.stringMatching(/^[-_a-zA-Z0-9]{1,32}$/);
const address = fc.stringMatching(/^[-.%a-zA-Z0-9]{1,128}$/);
// eip155 has rules of its own (decimal chain id, 0x 20-byte addresses), held by validate/rules.ts and tested there.
const chain = fc
  .tuple(namespace, chainRef)
  .filter(([ns]) => ns !== "eip155")
  .map(([ns, ref]) => `${ns}:${ref}`);
const settlement = fc
  .record({
    chain,
    assetNamespace: namespace,
    assetReference: address,
    tokenId: fc.option(fc.stringMatching(/^[-.%a-zA-Z0-9]{1,78}$/), { nil: undefined }),
    address,
  })
  .map(({ chain, assetNamespace, assetReference, tokenId, address }) => ({
    asset: `${chain}/${assetNamespace}:${assetReference}${tokenId === undefined ? "" : `/${tokenId}`}`,
    destination: `${chain}:${address}`,
  }));
const CAIP19 =
  /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}\/[-a-z0-9]{3,8}:[-.%a-zA-Z0-9]{1,128}(\/[-.%a-zA-Z0-9]{1,78})?$/;
const CAIP10 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:[-.%a-zA-Z0-9]{1,128}$/;
/** Near misses: a valid id with one character inserted, removed or replaced, that no longer matches. */
function nearMiss(valid: fc.Arbitrary<string>, pattern: RegExp) {
  return fc
    .tuple(valid, fc.nat(), fc.constantFrom("", " ", "/", ":", "#", "?", "é", "\n", "A", "_", "::"))
    .map(([value, at, insert]) => {
      const i = at % (value.length + 1);
      return value.slice(0, i) + insert + value.slice(i + (insert === "" ? 1 : 0));
    })
    .filter((value) => !pattern.test(value));
}

const httpsUrl = fc
  .webUrl({ validSchemes: ["https"], withQueryParameters: true, withFragments: true })
  .filter((u) => u === u.trim());
const badUrl = fc.oneof(
  fc.webUrl({ validSchemes: ["http", "ftp", "ws"] }),
  fc.string().filter((s) => {
    try {
      return new URL(s).protocol !== "https:";
    } catch {
      return true;
    }
  }),
  fc.constantFrom(
    "/checkout/ok",
    "shop.example/ok",
    "https://",
    " https://shop.example/ok",
    "javascript:alert(1)",
  ),
);

const ID_OK = (id: string) => id.length > 0 && !/[\s\p{Cc}]/u.test(id) && id !== "." && id !== "..";
/** Ids of every kind, including the ones that would change a path. */
const anyId = fc.oneof(
  fc.string({ unit: "grapheme", minLength: 1 }),
  fc.string({ unit: "binary" }),
  fc
    .array(
      fc.constantFrom("pay_", "../", "..", ".", "/", "?", "#", "%", "%2F", "%2e%2e", "\\", "x", "é", "&a=b"),
      {
        minLength: 1,
        maxLength: 6,
      },
    )
    .map((parts) => parts.join("")),
  fc.constantFrom("", " ", "\t", "pay 1", "pay\n1", "\u0000", "\u007f", ".", ".."),
);

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

describe("amounts and currency codes", () => {
  it("sends every valid amount exactly as { referenceId, amount: { unit, value } }", async () => {
    mock.respond(json({ id: "pay_1" }));
    await fc.assert(
      fc.asyncProperty(
        paymentMinorUnits,
        currency,
        fc.string({ minLength: 1 }).filter((s) => s.trim() !== ""),
        async (value, code, referenceId) => {
          const amount = { unit: `iso4217/${code}`, value };
          const request = await expectSent(() => sdk.payments.create({ referenceId, amount }));
          expect(request.method).toBe("POST");
          expect(request.headers.get("content-type")).toBe("application/json");
          expect(JSON.parse(request.body)).toStrictEqual({ referenceId, amount });
        },
      ),
      RUNS,
    );
  });

  it("refuses every malformed amount value on amount.value, sending nothing", async () => {
    await fc.assert(
      fc.asyncProperty(badMinorUnits, currency, async (value, code) => {
        const amount = { unit: `iso4217/${code}`, value } as { unit: string; value: string };
        await expectRefused(() => sdk.payments.create({ referenceId: "order-1", amount }), "amount.value");
        await expectRefused(
          () =>
            sdk.checkout.create({
              referenceId: "order-1",
              amount,
              successUrl: "https://shop.example/ok",
              errorUrl: "https://shop.example/ko",
            }),
          "amount.value",
        );
      }),
      RUNS,
    );
  });

  it("refuses every malformed currency unit on amount.unit, sending nothing", async () => {
    await fc.assert(
      fc.asyncProperty(badUnit, minorUnits, async (unit, value) => {
        await expectRefused(
          () => sdk.payments.create({ referenceId: "order-1", amount: { unit, value } }),
          "amount.unit",
        );
      }),
      RUNS,
    );
  });

  it("money helpers round-trip every minor amount without floating point", () => {
    fc.assert(
      fc.property(minorUnits, currency, (minor, code) => {
        expect(toMinorUnits(fromMinorUnits(minor, code), code)).toBe(minor);
      }),
      RUNS,
    );
  });
});

describe("CAIP-19 assets and CAIP-10 destinations", () => {
  it("sends every valid same-chain settlement exactly as { settlements: [{ asset, destination }] }", async () => {
    mock.respond(json({ crypto: [] }));
    await fc.assert(
      fc.asyncProperty(settlement, async (item) => {
        const request = await expectSent(() => sdk.settlements.createCrypto("mrch_1", [item]));
        expect(JSON.parse(request.body)).toStrictEqual({ settlements: [item] });
        expect(request.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
      }),
      RUNS,
    );
  });

  it("refuses a malformed asset on settlements.N.asset and a malformed destination on settlements.N.destination", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(settlement, { minLength: 0, maxLength: 3 }),
        settlement,
        fc.boolean(),
        nearMiss(
          settlement.map((s) => s.asset),
          CAIP19,
        ),
        nearMiss(
          settlement.map((s) => s.destination),
          CAIP10,
        ),
        async (before, item, breakAsset, badAsset, badDestination) => {
          // Earlier items get distinct assets so that only the broken one is at fault.
          const valid = before.map((s, i) => ({ ...s, asset: `${s.asset.split("/")[0]}/erc20:${i}x` }));
          valid.forEach((s, i) => {
            s.destination = `${s.asset.split("/")[0]}:addr${i}`;
          });
          const index = valid.length;
          const broken = breakAsset ? { ...item, asset: badAsset } : { ...item, destination: badDestination };
          await expectRefused(
            () => sdk.settlements.createCrypto("mrch_1", [...valid, broken]),
            `settlements.${index}.${breakAsset ? "asset" : "destination"}`,
          );
        },
      ),
      RUNS,
    );
  });

  it("refuses a destination on another chain than its asset, on settlements.0.destination", async () => {
    await fc.assert(
      fc.asyncProperty(settlement, chain, async (item, otherChain) => {
        fc.pre(otherChain !== item.asset.split("/")[0]);
        const destination = `${otherChain}:${item.destination.split(":")[2]}`;
        await expectRefused(
          () => sdk.settlements.createCrypto("mrch_1", [{ asset: item.asset, destination }]),
          "settlements.0.destination",
        );
      }),
      RUNS,
    );
  });

  it("sends a valid new destination as { destination } and refuses a malformed one on destination", async () => {
    mock.respond(json({}));
    await fc.assert(
      fc.asyncProperty(
        settlement,
        nearMiss(
          settlement.map((s) => s.destination),
          CAIP10,
        ),
        async (item, bad) => {
          const request = await expectSent(() =>
            sdk.settlements.updateCrypto("mrch_1", "crypto_1", { destination: item.destination }),
          );
          expect(request.method).toBe("PUT");
          expect(JSON.parse(request.body)).toStrictEqual({ destination: item.destination });
          await expectRefused(
            () => sdk.settlements.updateCrypto("mrch_1", "crypto_1", { destination: bad }),
            "destination",
          );
        },
      ),
      RUNS,
    );
  });
});

describe("checkout URLs", () => {
  it("sends every absolute https URL exactly as given, under checkout", async () => {
    mock.respond(json({ paymentId: "pay_1", gatewayUrl: "https://portal.example/pay_1" }));
    await fc.assert(
      fc.asyncProperty(httpsUrl, httpsUrl, async (successUrl, errorUrl) => {
        const amount = { unit: "iso4217/USD", value: "1999" };
        const request = await expectSent(() =>
          sdk.checkout.create({ referenceId: "order-1", amount, successUrl, errorUrl }),
        );
        expect(JSON.parse(request.body)).toStrictEqual({
          referenceId: "order-1",
          amount,
          checkout: { successUrl, errorUrl },
        });
      }),
      RUNS,
    );
  });

  it("refuses every URL that is not absolute https, naming successUrl or errorUrl", async () => {
    await fc.assert(
      fc.asyncProperty(badUrl, fc.boolean(), async (bad, onSuccess) => {
        const good = "https://shop.example/back";
        await expectRefused(
          () =>
            sdk.checkout.create({
              referenceId: "order-1",
              amount: { unit: "iso4217/USD", value: "1999" },
              successUrl: onSuccess ? bad : good,
              errorUrl: onSuccess ? good : bad,
            }),
          onSuccess ? "successUrl" : "errorUrl",
        );
      }),
      RUNS,
    );
  });
});

describe("ids in paths", () => {
  const PATH_OPS: Array<{
    field: string;
    call(id: string): Promise<unknown>;
    path(segment: string): string;
  }> = [
    { field: "merchantId", call: (id) => sdk.merchants.retrieve(id), path: (s) => `/v1/merchants/${s}` },
    {
      field: "merchantId",
      call: (id) => sdk.settlements.list(id),
      path: (s) => `/v1/merchants/${s}/settlements`,
    },
    {
      field: "settlementId",
      call: (id) =>
        sdk.settlements.updateCrypto("mrch_1", id, { destination: `eip155:1:0x${"ab".repeat(20)}` }),
      path: (s) => `/v1/merchants/mrch_1/settlements/crypto/${s}`,
    },
    { field: "paymentId", call: (id) => sdk.payments.status(id), path: (s) => `/v1/payments/${s}/status` },
    { field: "paymentId", call: (id) => sdk.payments.cancel(id), path: (s) => `/v1/payments/${s}/cancel` },
    {
      field: "paymentId",
      call: (id) => sdk.checkout.status(id),
      path: (s) => `/v1/merchant/payment/${s}/status`,
    },
    {
      field: "paymentId",
      call: (id) => sdk.gateway.fetchAction(id),
      path: (s) => `/v1/gateway/payment/${s}/fetch`,
    },
  ];

  it("sends every acceptable id as exactly one path segment, and refuses the others naming the field", async () => {
    await fc.assert(
      fc.asyncProperty(
        anyId.filter((id) => !/\p{Cs}/u.test(id)), // lone surrogates: see the test below
        fc.constantFrom(...PATH_OPS),
        async (id, op) => {
          if (!ID_OK(id)) {
            await expectRefused(() => op.call(id), op.field);
            return;
          }
          const request = await expectSent(() => op.call(id));
          expect(request.url.pathname).toBe(op.path(encodeURIComponent(id)));
          expect(request.url.search).toBe("");
          expect(request.url.hash).toBe("");
          const segments = request.url.pathname.split("/");
          expect(segments).toHaveLength(op.path("x").split("/").length);
          expect(segments.map((s) => decodeURIComponent(s))).toContain(id);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("refuses an id that is not well-formed UTF-16 (a lone surrogate) with InputValidationError, not a URIError", async () => {
    for (const op of PATH_OPS) {
      await expectRefused(() => op.call("pay_\uD800"), op.field);
      await expectRefused(() => op.call("\uDC00"), op.field);
    }
  });
});

describe("other fields and options", () => {
  it("sends a merchant's name trimmed and its e-mail as given, and refuses blank names and bad e-mails", async () => {
    mock.respond(json({ merchant: {} }));
    const email = fc
      .tuple(fc.stringMatching(/^[a-z0-9._+-]{1,20}$/), fc.stringMatching(/^[a-z0-9-]{1,10}\.[a-z]{2,6}$/))
      .map(([local, domain]) => `${local}@${domain}`);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1 }).filter((s) => s.trim() !== ""),
        email,
        fc.string().filter((s) => !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(s.trim())),
        async (name, address, badEmail) => {
          const request = await expectSent(() => sdk.merchants.create({ name: ` ${name} `, email: address }));
          expect(JSON.parse(request.body)).toStrictEqual({
            merchantName: name.trim(),
            merchantEmail: address,
          });
          await expectRefused(
            () => sdk.merchants.create({ name: " \t ", email: "billing@shop.example" }),
            "name",
          );
          await expectRefused(() => sdk.merchants.create({ name, email: badEmail }), "email");
        },
      ),
      RUNS,
    );
  });

  it("refuses per-call options that cannot be sent as headers, naming the option", async () => {
    const badHeaderValue = fc.oneof(
      fc.constantFrom("", " ", "a b", "k\r\nX-Evil: 1", "é", "x".repeat(256)),
      fc.string().filter((s) => !/^[\x21-\x7e]{1,255}$/.test(s)),
    );
    await fc.assert(
      fc.asyncProperty(
        badHeaderValue,
        fc.constantFrom<keyof RequestOptions>("merchantId", "idempotencyKey"),
        async (value, option) => {
          await expectRefused(() => sdk.payments.status("pay_1", { [option]: value }), `options.${option}`);
        },
      ),
      RUNS,
    );
  });
});
