import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CreateCryptoSettlementsInput,
  createCryptoSettlementsResponseSchema,
  readResponse,
  settlementsListSchema,
  toCreateCryptoSettlementsBody,
  toUpdateCryptoSettlementBody,
  type UpdateCryptoSettlementInput,
  unknownField,
} from "../../src/schemas/index.js";
import { inputError } from "../helpers/assertions.js";
import { USDC_BASE } from "../helpers/fixtures.js";

const USDC_ETH = "eip155:1/erc20:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const WALLET_BASE = "eip155:8453:0x1111111111111111111111111111111111111111";
const WALLET_ETH = "eip155:1:0x1111111111111111111111111111111111111111";

describe("crypto settlement create input", () => {
  it("wraps a valid list as { settlements }", () => {
    expect(
      toCreateCryptoSettlementsBody([
        { asset: USDC_BASE, destination: WALLET_BASE },
        { asset: USDC_ETH, destination: WALLET_ETH },
      ]),
    ).toEqual({
      settlements: [
        { asset: USDC_BASE, destination: WALLET_BASE },
        { asset: USDC_ETH, destination: WALLET_ETH },
      ],
    });
  });

  it("rejects a destination on another chain than its asset, on settlements.N.destination", () => {
    const error = inputError(() =>
      toCreateCryptoSettlementsBody([
        { asset: USDC_BASE, destination: WALLET_BASE },
        { asset: USDC_ETH, destination: WALLET_BASE },
      ]),
    );
    expect(error.field).toBe("settlements.1.destination");
    expect(error.issues[0]?.message).toContain("eip155:1");
  });

  it("rejects the same asset twice in one call, on the second one", () => {
    const error = inputError(() =>
      toCreateCryptoSettlementsBody([
        { asset: USDC_BASE, destination: WALLET_BASE },
        { asset: USDC_BASE.toLowerCase(), destination: WALLET_BASE },
      ]),
    );
    expect(error.field).toBe("settlements.1.asset");
  });

  it.each([
    [[], "settlements"],
    [undefined, "settlements"],
    [{ asset: USDC_BASE, destination: WALLET_BASE }, "settlements"],
    [[{ asset: "usdc", destination: WALLET_BASE }], "settlements.0.asset"],
    [[{ asset: USDC_BASE, destination: "0x1111" }], "settlements.0.destination"],
    [[{ asset: USDC_BASE }], "settlements.0.destination"],
    [[{ asset: USDC_BASE, destination: WALLET_BASE, memo: "x" }], "settlements.0.memo"],
    [[null], "settlements.0"],
  ])("rejects %j on %s", (input, field) => {
    const error = inputError(() =>
      toCreateCryptoSettlementsBody(input as unknown as CreateCryptoSettlementsInput),
    );
    expect(error.field).toBe(field);
  });

  it("accepts any same-chain pair built from the grammar and rejects any cross-chain pair (property)", () => {
    const chain = fc.tuple(fc.stringMatching(/^[-a-z0-9]{3,8}$/), fc.stringMatching(/^[-_a-zA-Z0-9]{1,32}$/));
    const ref = fc.stringMatching(/^[-.%a-zA-Z0-9]{1,128}$/);
    fc.assert(
      fc.property(chain, chain, ref, ref, ([ns, cref], [ns2, cref2], assetRef, address) => {
        const asset = `${ns}:${cref}/erc20:${assetRef}`;
        expect(
          toCreateCryptoSettlementsBody([{ asset, destination: `${ns}:${cref}:${address}` }]).settlements,
        ).toHaveLength(1);
        if (ns !== ns2 || cref !== cref2) {
          const error = inputError(() =>
            toCreateCryptoSettlementsBody([{ asset, destination: `${ns2}:${cref2}:${address}` }]),
          );
          expect(error.field).toBe("settlements.0.destination");
        }
      }),
    );
  });
});

describe("crypto settlement update input", () => {
  it("maps { destination } to the body", () => {
    expect(toUpdateCryptoSettlementBody({ destination: WALLET_BASE })).toEqual({ destination: WALLET_BASE });
  });

  it.each([
    [{}, "destination"],
    [{ destination: "0xabc" }, "destination"],
    [{ destination: WALLET_BASE, asset: USDC_BASE }, "asset"],
  ])("rejects %j on %s", (input, field) => {
    expect(inputError(() => toUpdateCryptoSettlementBody(input as UpdateCryptoSettlementInput)).field).toBe(
      field,
    );
  });
});

describe("settlement responses", () => {
  it("parses the list and keeps unknown fields", () => {
    const result = readResponse(
      settlementsListSchema,
      {
        fiat: [{ id: "fiat_1", status: "new_status", bankType: "whatever", iban: "x" }],
        crypto: [{ id: "crypto_1", asset: USDC_BASE, destination: WALLET_BASE }],
        next: null,
      },
      "strict",
    );
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.fiat[0] && unknownField(result.data.fiat[0], "iban")).toBe("x");
    expect(unknownField(result.data, "next")).toBeNull();
  });

  it("requires both arrays", () => {
    const result = readResponse(settlementsListSchema, { crypto: [] }, "strict");
    expect(result.success).toBe(false);
    if (!result.success) expect(result.issues).toEqual([{ path: "fiat", message: "is required" }]);
  });

  it("returns an undocumented create response as it came", () => {
    const result = readResponse(createCryptoSettlementsResponseSchema, { anything: 1 }, "strict");
    expect(result).toMatchObject({ success: true, data: { anything: 1 } });
  });
});
