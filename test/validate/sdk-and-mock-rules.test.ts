/**
 * The SDK and its mock agree (issue #13): every input the SDK accepts, the mock accepts, and every input the mock
 * refuses as invalid (400 `invalid_request`), the SDK refuses before sending. Inputs mix valid values with the near
 * misses that once slipped between them: `eip155:1:0xYourAddress`, `http://shop.localhost`, CLF/UYW/UYI amounts,
 * `"0"`, a 31-digit amount, e-mails each side read differently.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { APIError, InputValidationError, MerchantPaymentsClient } from "../../src/index.js";
import { createMockService, type MockService } from "../../src/testing/index.js";

const RUNS = { numRuns: 150 };
const ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";

type Outcome = "refused before sending" | "accepted" | "refused by the mock";

/** Runs one SDK call against the mock; says who refused it, if anyone. */
async function outcome(call: () => Promise<unknown>, sent: () => number): Promise<Outcome> {
  const before = sent();
  try {
    await call();
    return "accepted";
  } catch (error) {
    if (error instanceof InputValidationError) {
      expect(sent()).toBe(before);
      return "refused before sending";
    }
    if (error instanceof APIError && error.status === 400) return "refused by the mock";
    return "accepted"; // refused for a reason the SDK cannot know (a conflict, a state): not a disagreement
  }
}

function setup(baseUrl = "https://mock.merchant-payments.test") {
  const mock = createMockService();
  let sent = 0;
  const client = new MerchantPaymentsClient({
    apiKey: mock.keys.test,
    baseUrl,
    merchantId: mock.merchantId,
    maxRetries: 0,
    fetch: (input, init) => {
      sent++;
      return mock.fetch(input, init);
    },
  });
  return { mock, client, sent: () => sent };
}

/** The mock's own verdict on a raw wire body (no SDK in between). */
async function mockRefuses(
  mock: MockService,
  path: string,
  body: unknown,
  merchant = false,
): Promise<boolean> {
  const headers: Record<string, string> = {
    "Api-Key": mock.keys.test,
    "Content-Type": "application/json",
    "Idempotency-Key": crypto.randomUUID(),
  };
  if (merchant) headers["Merchant-Id"] = mock.merchantId;
  const res = await mock.fetch(`${mock.baseUrl}${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  return res.status === 400;
}

const text = fc.oneof(fc.string(), fc.constantFrom("", " ", "Acme", " Acme ", "x".repeat(300)));
const email = fc.oneof(
  fc.emailAddress(),
  fc.string(),
  fc.constantFrom(
    "a@b",
    "a@b.",
    "a@@b.c",
    "a b@c.d",
    "a@b.c",
    "a@b..c",
    `${"a".repeat(250)}@b.co`,
    "ops@acme.example",
  ),
);
const eip155Chain = fc.constantFrom("1", "8453", "84532", "x1", "01");
const address = fc.constantFrom(
  ADDRESS,
  ADDRESS.toLowerCase(),
  "0xYourAddress",
  "0xab",
  `${ADDRESS}00`,
  "abc",
);
const account = fc.oneof(
  fc.tuple(eip155Chain, address).map(([chain, a]) => `eip155:${chain}:${a}`),
  fc.constantFrom(
    "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv",
    "eip155:1",
    "",
  ),
);
const asset = fc.oneof(
  fc
    .tuple(eip155Chain, fc.constantFrom(USDC, "0xabc", ADDRESS))
    .map(([chain, a]) => `eip155:${chain}/erc20:${a}`),
  fc.constantFrom("eip155:1/slip44:60", "eip155:1/erc721:0xabc/1", "eip155:1/erc20", "bad"),
);
const currency = fc.constantFrom(
  "USD",
  "JPY",
  "CLF",
  "UYW",
  "UYI",
  "BHD",
  "EUR",
  "usd",
  "US",
  "USDT",
  "BTC",
  "XAU",
  "XTS",
  "XCG",
  "ABC",
);
const value = fc.oneof(
  fc.bigInt({ min: 0n, max: 10n ** 32n }).map(String),
  fc.constantFrom("0", "00", "01", "-1", "1.5", "1e3", " 1", "1".repeat(30), "1".repeat(31)),
);
const url = fc.constantFrom(
  "https://shop.example/ok",
  "http://localhost:3000/ok",
  "http://127.0.0.1:3000/ok",
  "http://127.8.9.10/ok",
  "http://[::1]:3000/ok",
  "http://shop.localhost:3000/ok",
  "http://example.com/ok",
  "ftp://shop.example/ok",
  " https://shop.example/ok",
  "not a url",
);

describe("the SDK and the mock agree on what is valid", () => {
  it("merchants.create: name and e-mail", async () => {
    await fc.assert(
      fc.asyncProperty(text, email, async (name, mail) => {
        const { mock, client, sent } = setup();
        const result = await outcome(() => client.merchants.create({ name, email: mail }), sent);
        expect(result).not.toBe("refused by the mock");
        const raw = await mockRefuses(mock, "/v1/merchants", { merchantName: name, merchantEmail: mail });
        if (raw) expect(result).toBe("refused before sending");
      }),
      RUNS,
    );
  });

  it("merchants.create without an e-mail: both refuse it", async () => {
    const { mock, client, sent } = setup();
    expect(await outcome(() => client.merchants.create({ name: "Acme" } as never), sent)).toBe(
      "refused before sending",
    );
    expect(await mockRefuses(mock, "/v1/merchants", { merchantName: "Acme" })).toBe(true);
  });

  it("settlements.createCrypto: CAIP-19 assets and CAIP-10 destinations, eip155 rules included", async () => {
    await fc.assert(
      fc.asyncProperty(asset, account, async (a, destination) => {
        const { mock, client, sent } = setup();
        const result = await outcome(
          () => client.settlements.createCrypto(mock.merchantId, [{ asset: a, destination }]),
          sent,
        );
        expect(result).not.toBe("refused by the mock");
        const path = `/v1/merchants/${mock.merchantId}/settlements/crypto`;
        if (await mockRefuses(mock, path, { settlements: [{ asset: a, destination }] })) {
          expect(result).toBe("refused before sending");
        }
      }),
      RUNS,
    );
  });

  it("payments.create: currency codes (CLF, UYW, UYI included) and amounts (0 and 31 digits refused)", async () => {
    await fc.assert(
      fc.asyncProperty(currency, value, async (code, v) => {
        const { mock, client, sent } = setup();
        const amount = { unit: `iso4217/${code}`, value: v };
        const result = await outcome(() => client.payments.create({ referenceId: "o-1", amount }), sent);
        expect(result).not.toBe("refused by the mock");
        if (await mockRefuses(mock, "/v1/payments", { referenceId: "o-1", amount }, true)) {
          expect(result).toBe("refused before sending");
        }
      }),
      RUNS,
    );
  });

  it("checkout.create against a local mock: a return URL the SDK accepts turns redirects on", async () => {
    await fc.assert(
      fc.asyncProperty(url, async (successUrl) => {
        const { mock, client, sent } = setup("http://127.0.0.1:4010");
        let paymentId: string | undefined;
        const amount = { unit: "iso4217/USD", value: "100" };
        const result = await outcome(async () => {
          ({ paymentId } = await client.checkout.create({
            referenceId: "o-1",
            amount,
            successUrl,
            errorUrl: successUrl,
          }));
        }, sent);
        expect(result).not.toBe("refused by the mock");
        if (paymentId !== undefined) expect(mock.getPayment(paymentId).redirects).not.toBeNull();
      }),
      { numRuns: 40 },
    );
  });

  it("refuses http://shop.localhost on both sides: not a loopback address", async () => {
    const { client, sent } = setup("http://127.0.0.1:4010");
    const amount = { unit: "iso4217/USD", value: "100" };
    const successUrl = "http://shop.localhost:3000/ok";
    const result = await outcome(
      () => client.checkout.create({ referenceId: "o-1", amount, successUrl, errorUrl: successUrl }),
      sent,
    );
    expect(result).toBe("refused before sending");
    expect(
      () => new MerchantPaymentsClient({ apiKey: "mock_test_x", baseUrl: "http://shop.localhost:4010" }),
    ).toThrow(/https/);
  });

  it("names a settlement field the same way on both sides: settlements.0.destination", async () => {
    const { mock, client, sent } = setup();
    const bad = [{ asset: `eip155:1/erc20:${USDC}`, destination: "eip155:1:0xYourAddress" }];
    const sdkError = await client.settlements.createCrypto(mock.merchantId, bad).catch((e: unknown) => e);
    expect(sdkError).toBeInstanceOf(InputValidationError);
    expect((sdkError as InputValidationError).field).toBe("settlements.0.destination");
    expect(sent()).toBe(0);
    const res = await mock.fetch(`${mock.baseUrl}/v1/merchants/${mock.merchantId}/settlements/crypto`, {
      method: "POST",
      headers: { "Api-Key": mock.keys.test, "Content-Type": "application/json" },
      body: JSON.stringify({ settlements: bad }),
    });
    expect(((await res.json()) as { details: { field: string } }).details.field).toBe(
      "settlements.0.destination",
    );
  });
});
