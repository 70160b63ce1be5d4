import { describe, expect, it } from "vitest";
import { ConflictError, type MerchantPaymentsClient, NotFoundError } from "../../src/index.js";
import { failure, refusedBeforeSending } from "../helpers/assertions.js";
import { testClient as client } from "../helpers/clients.js";
import { MERCHANT as BARE_MERCHANT, CREATED_AT, DEST_BASE, USDC_BASE } from "../helpers/fixtures.js";
import { apiError, BASE_URL, json, useRecordingServer } from "../helpers/recording-server.js";

const mock = useRecordingServer();
const inputError = (call: () => Promise<unknown>) => refusedBeforeSending(call, mock.requests);

const body = (index = 0) => JSON.parse(mock.requests[index]?.body ?? "null") as unknown;

const USDC_ETH = "eip155:1/erc20:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const DEST_ETH = "eip155:1:0x2222222222222222222222222222222222222222";
const SOLANA_CHAIN = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
const USDC_SOL = `${SOLANA_CHAIN}/token:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`;
const DEST_SOL = `${SOLANA_CHAIN}:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv`;

const CRYPTO = { id: "crypto_1", asset: USDC_BASE, destination: DEST_BASE };
const FIAT = { id: "fiat_1", status: "verified", bankType: "iban" };
const MERCHANT = {
  ...BARE_MERCHANT,
  email: "billing@shop.example",
  iconUrl: "https://cdn.shop.example/logo.png",
  settlements: { crypto: [CRYPTO], fiat: [FIAT] },
};

describe("merchants.list", () => {
  it("GETs /v1/merchants and keeps the items exactly as sent", async () => {
    const items = [
      { id: "mrch_1", name: "Shop", nested: { anything: [1, "two", null] } },
      { id: "mrch_2", brandNewField: true },
    ];
    mock.respond(json({ data: items, hasMore: false }));
    const result = await client().merchants.list();
    const [request] = mock.requests;
    expect(request?.method).toBe("GET");
    expect(request?.url.href).toBe(`${BASE_URL}/v1/merchants`);
    expect(result).toEqual({ data: items, hasMore: false });
  });

  it("accepts an empty list", async () => {
    mock.respond(json({ data: [] }));
    expect(await client().merchants.list()).toEqual({ data: [] });
  });

  it("passes query parameters through, leaving out undefined ones", async () => {
    mock.respond(json({ data: [] }));
    await client().merchants.list({ limit: 10, active: true, cursor: undefined, q: "a b&c" });
    const url = mock.requests[0]?.url;
    expect(url?.pathname).toBe("/v1/merchants");
    expect([...(url?.searchParams.entries() ?? [])]).toEqual([
      ["limit", "10"],
      ["active", "true"],
      ["q", "a b&c"],
    ]);
  });

  it.each([
    [{ limit: { max: 10 } }, "query.limit"],
    [{ active: null }, "query.active"],
    [{ limit: Number.NaN }, "query.limit"],
    [{ cursor: ["a", "b"] }, "query.cursor"],
    [[1, 2], "query"],
    ["limit=10", "query"],
  ])("refuses the query %j before sending, naming %s", async (query, field) => {
    const error = await inputError(() => client().merchants.list(query as never));
    expect(error.field).toBe(field);
  });

  it("refuses a body without a data array", async () => {
    mock.respond(json({ merchants: [] }));
    const error = await failure(() => client().merchants.list());
    expect((error as Error).name).toBe("ResponseValidationError");
  });
});

describe("merchants.create", () => {
  const CREATED = {
    merchant: {
      id: "mrch_9",
      name: "Shop",
      email: "billing@shop.example",
      status: "active",
      createdAt: CREATED_AT,
      tier: "gold",
    },
    requestEcho: 1,
  };

  it("POSTs {merchantName, merchantEmail} and returns the unwrapped merchant", async () => {
    mock.respond(json(CREATED));
    const merchant = await client().merchants.create({ name: "Shop", email: "billing@shop.example" });
    const [request] = mock.requests;
    expect(request?.method).toBe("POST");
    expect(request?.url.href).toBe(`${BASE_URL}/v1/merchants`);
    expect(body()).toEqual({ merchantName: "Shop", merchantEmail: "billing@shop.example" });
    expect(merchant).toEqual(CREATED.merchant);
  });

  it("trims the name and the e-mail", async () => {
    mock.respond(json(CREATED));
    await client().merchants.create({ name: "  Shop  ", email: " billing@shop.example " });
    expect(body()).toEqual({ merchantName: "Shop", merchantEmail: "billing@shop.example" });
  });

  it.each([
    [{ name: "" }, "name"],
    [{ name: "   " }, "name"],
    [{}, "name"],
    [{ name: 42 }, "name"],
    [{ name: "Shop", email: "not-an-email" }, "email"],
    [{ name: "Shop", email: "a b@shop.example" }, "email"],
    [{ name: "Shop" }, "email"],
    [{ name: "Shop", email: "billing@shop.example", merchantName: "Shop" }, "merchantName"],
  ])("refuses %j on %s and sends nothing", async (input, field) => {
    const error = await inputError(() =>
      client().merchants.create(
        input as unknown as Parameters<MerchantPaymentsClient["merchants"]["create"]>[0],
      ),
    );
    expect(error.field).toBe(field);
  });

  it("refuses a body whose merchant lacks an id", async () => {
    mock.respond(json({ merchant: { name: "Shop", email: null, status: "active", createdAt: CREATED_AT } }));
    const error = await failure(() =>
      client().merchants.create({ name: "Shop", email: "billing@shop.example" }),
    );
    expect((error as Error).name).toBe("ResponseValidationError");
  });
});

describe("merchants.retrieve", () => {
  it("GETs /v1/merchants/{id} and returns the unwrapped merchant with its settlements and extra fields", async () => {
    const merchant = { ...MERCHANT, status: "under_review", branding: { color: "#000" } };
    mock.respond(json({ merchant }));
    const result = await client().merchants.retrieve("mrch_1");
    const [request] = mock.requests;
    expect(request?.method).toBe("GET");
    expect(request?.url.href).toBe(`${BASE_URL}/v1/merchants/mrch_1`);
    expect(result).toEqual(merchant);
  });

  it("maps 404 not_found to NotFoundError, without retrying", async () => {
    mock.respond(apiError(404, "not_found"));
    const error = await failure(() => client().merchants.retrieve("mrch_missing"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: "not_found", path: "/v1/merchants/mrch_missing" });
    expect(mock.requests).toHaveLength(1);
  });

  it("refuses a merchant without its settlements", async () => {
    const { settlements: _dropped, ...withoutSettlements } = MERCHANT;
    mock.respond(json({ merchant: withoutSettlements }));
    const error = await failure(() => client().merchants.retrieve("mrch_1"));
    expect((error as Error).name).toBe("ResponseValidationError");
  });
});

describe("settlements.list", () => {
  it("GETs /v1/merchants/{id}/settlements and returns fiat and crypto with extra fields", async () => {
    const answer = { fiat: [{ ...FIAT, label: "EUR account" }], crypto: [CRYPTO], pending: [] };
    mock.respond(json(answer));
    const result = await client().settlements.list("mrch_1");
    expect(mock.requests[0]?.method).toBe("GET");
    expect(mock.requests[0]?.url.href).toBe(`${BASE_URL}/v1/merchants/mrch_1/settlements`);
    expect(result).toEqual(answer);
  });
});

describe("settlements.createCrypto", () => {
  it("POSTs {settlements: [{asset, destination}]} and returns the body as sent", async () => {
    const answer = { settlements: [{ ...CRYPTO, createdAt: CREATED_AT }] };
    mock.respond(json(answer));
    const result = await client().settlements.createCrypto("mrch_1", [
      { asset: USDC_BASE, destination: DEST_BASE },
      { asset: USDC_SOL, destination: DEST_SOL },
    ]);
    const [request] = mock.requests;
    expect(request?.method).toBe("POST");
    expect(request?.url.href).toBe(`${BASE_URL}/v1/merchants/mrch_1/settlements/crypto`);
    expect(body()).toEqual({
      settlements: [
        { asset: USDC_BASE, destination: DEST_BASE },
        { asset: USDC_SOL, destination: DEST_SOL },
      ],
    });
    expect(result).toEqual(answer);
  });

  it.each([409, 400, 422])(
    "maps settlement_asset_conflict (status %i) to ConflictError with that code, without retrying",
    async (status) => {
      mock.respond(apiError(status, "settlement_asset_conflict"));
      const error = await failure(() =>
        client().settlements.createCrypto("mrch_1", [{ asset: USDC_BASE, destination: DEST_BASE }]),
      );
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ code: "settlement_asset_conflict", status });
      expect(mock.requests).toHaveLength(1);
    },
  );

  it("accepts settlements on several chains and an NFT-style asset id with a token id", async () => {
    mock.respond(json({}));
    await client().settlements.createCrypto("mrch_1", [
      { asset: USDC_ETH, destination: DEST_ETH },
      { asset: "eip155:1/erc721:0x06012c8cf97BEaD5deAe237070F9587f8E7A266d/771769", destination: DEST_ETH },
      { asset: "eip155:1/slip44:60", destination: DEST_ETH },
    ]);
    expect(mock.requests).toHaveLength(1);
  });

  const one = (asset: unknown, destination: unknown) => [{ asset, destination }];
  it.each([
    ["an asset without a reference", one("eip155:8453/erc20", DEST_BASE), "settlements.0.asset"],
    [
      "an asset without a chain",
      one("erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", DEST_BASE),
      "settlements.0.asset",
    ],
    ["an upper-case namespace", one("EIP155:8453/erc20:0xabc", DEST_BASE), "settlements.0.asset"],
    ["a two-letter namespace", one("ei:8453/erc20:0xabc", DEST_BASE), "settlements.0.asset"],
    ["a space in the asset", one("eip155:8453/erc20:0x abc", DEST_BASE), "settlements.0.asset"],
    ["a CAIP-10 account as the asset", one(DEST_BASE, DEST_BASE), "settlements.0.asset"],
    ["an empty asset", one("", DEST_BASE), "settlements.0.asset"],
    [
      "a bare address as destination",
      one(USDC_BASE, "0x1111111111111111111111111111111111111111"),
      "settlements.0.destination",
    ],
    ["a chain id as destination", one(USDC_BASE, "eip155:8453"), "settlements.0.destination"],
    ["a bad character in the address", one(USDC_BASE, "eip155:8453:0x11!1"), "settlements.0.destination"],
    ["an asset id as destination", one(USDC_BASE, USDC_BASE), "settlements.0.destination"],
    ["a destination on another chain", one(USDC_BASE, DEST_ETH), "settlements.0.destination"],
    ["a missing destination", [{ asset: USDC_BASE }], "settlements.0.destination"],
    [
      "an unknown field",
      [{ asset: USDC_BASE, destination: DEST_BASE, chain: "base" }],
      "settlements.0.chain",
    ],
    ["an empty array", [], "settlements"],
    ["a single object instead of an array", { asset: USDC_BASE, destination: DEST_BASE }, "settlements"],
    [
      "the same asset twice",
      [
        { asset: USDC_BASE, destination: DEST_BASE },
        { asset: USDC_ETH, destination: DEST_ETH },
        { asset: USDC_BASE, destination: "eip155:8453:0x3333333333333333333333333333333333333333" },
      ],
      "settlements.2.asset",
    ],
    [
      "the same EVM asset in another letter case",
      [
        { asset: USDC_BASE, destination: DEST_BASE },
        { asset: USDC_BASE.toLowerCase(), destination: DEST_BASE },
      ],
      "settlements.1.asset",
    ],
  ])("refuses %s and sends nothing", async (_label, settlements, field) => {
    const error = await inputError(() =>
      client().settlements.createCrypto(
        "mrch_1",
        settlements as unknown as Parameters<MerchantPaymentsClient["settlements"]["createCrypto"]>[1],
      ),
    );
    expect(error.field).toBe(field);
    expect(error.message).toContain(field);
  });

  it("names the destination on another chain with both chains in the message", async () => {
    const error = await inputError(() =>
      client().settlements.createCrypto("mrch_1", [{ asset: USDC_BASE, destination: DEST_ETH }]),
    );
    expect(error.message).toContain("eip155:8453");
    expect(error.message).toContain("eip155:1");
  });
});

describe("settlements.updateCrypto", () => {
  it("PUTs {destination} to .../settlements/crypto/{id} and returns the body as sent", async () => {
    const answer = { ...CRYPTO, destination: "eip155:8453:0x4444444444444444444444444444444444444444" };
    mock.respond(json(answer));
    const result = await client().settlements.updateCrypto("mrch_1", "crypto_1", {
      destination: answer.destination,
    });
    const [request] = mock.requests;
    expect(request?.method).toBe("PUT");
    expect(request?.url.href).toBe(`${BASE_URL}/v1/merchants/mrch_1/settlements/crypto/crypto_1`);
    expect(body()).toEqual({ destination: answer.destination });
    expect(result).toEqual(answer);
  });

  it.each([
    [{ destination: "0x4444" }, "destination"],
    [{ destination: USDC_BASE }, "destination"],
    [{}, "destination"],
    [{ destination: DEST_BASE, asset: USDC_BASE }, "asset"],
  ])("refuses %j on %s and sends nothing", async (changes, field) => {
    const error = await inputError(() =>
      client().settlements.updateCrypto(
        "mrch_1",
        "crypto_1",
        changes as unknown as Parameters<MerchantPaymentsClient["settlements"]["updateCrypto"]>[2],
      ),
    );
    expect(error.field).toBe(field);
  });
});

describe("ids in paths", () => {
  it.each([
    ["", "merchantId"],
    [".", "merchantId"],
    ["..", "merchantId"],
  ])("settlements.list refuses merchant id %j", async (id, field) => {
    const error = await inputError(() => client().settlements.list(id));
    expect(error.field).toBe(field);
  });

  it.each(["", ".", ".."])("settlements.updateCrypto refuses settlement id %j", async (id) => {
    const error = await inputError(() =>
      client().settlements.updateCrypto("mrch_1", id, { destination: DEST_BASE }),
    );
    expect(error.field).toBe("settlementId");
  });

  it("encodes / ? # in merchant and settlement ids so they stay one segment each", async () => {
    mock.respond(json({}));
    await client().settlements.updateCrypto("m/1?a#b", "crypto/2?c#d", { destination: DEST_BASE });
    await client().settlements.createCrypto("../x", [{ asset: USDC_BASE, destination: DEST_BASE }]);
    mock.respond(json({ fiat: [], crypto: [] }));
    await client().settlements.list("a b".replace(" ", "%"));
    expect(mock.requests.map((r) => r.url.pathname)).toEqual([
      "/v1/merchants/m%2F1%3Fa%23b/settlements/crypto/crypto%2F2%3Fc%23d",
      "/v1/merchants/..%2Fx/settlements/crypto",
      "/v1/merchants/a%25b/settlements",
    ]);
    expect(mock.requests.every((r) => r.url.search === "" && r.url.hash === "")).toBe(true);
  });
});
