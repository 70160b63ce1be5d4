/**
 * Settlement schemas: crypto settlement inputs (create, update) with their request bodies, and the
 * crypto and fiat settlement records returned by the service.
 *
 * @module
 */
import * as z from "zod/mini";
import { CAIP10_RE, CAIP19_RE, caip10Schema, caip19Schema, reportProblem, responseObject } from "./common.js";
import { parseInput } from "./input.js";
import { objectItem, responseArray } from "./response-array.js";

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------

const cryptoSettlementInputObject = z.strictObject({
  /** CAIP-19 asset id of the token to settle in, e.g. `eip155:1/erc20:0x…`. */
  asset: caip19Schema,
  /** CAIP-10 account that receives the funds, on the same chain as `asset`. */
  destination: caip10Schema,
});

/** One crypto settlement to register: `{ asset, destination }`. */
export interface CryptoSettlementInput extends z.input<typeof cryptoSettlementInputObject> {}

/**
 * One crypto settlement to register: a CAIP-19 `asset` and a CAIP-10 `destination` on the same
 * chain (same CAIP-2 chain id). A mismatch is reported on `destination`.
 */
export const cryptoSettlementInputSchema: z.ZodMiniType<CryptoSettlementInput, CryptoSettlementInput> =
  cryptoSettlementInputObject.check(
    z.check((payload) => {
      const { value } = payload;
      // Group 1 of both patterns is the CAIP-2 chain id; a malformed id is already reported on its own field.
      const assetChain = CAIP19_RE.exec(value.asset)?.[1];
      const destinationChain = CAIP10_RE.exec(value.destination)?.[1];
      if (!assetChain || !destinationChain || assetChain === destinationChain) return;
      reportProblem(
        payload,
        ["destination"],
        `must be on the same chain as the asset (${assetChain}), but is on ${destinationChain}`,
      );
    }),
  );

/** The key under which two asset ids are the same asset (EVM hex addresses compare case-insensitively). */
function assetKey(asset: string): string {
  return asset.startsWith("eip155:") ? asset.toLowerCase() : asset;
}

/**
 * Input of `settlements.createCrypto`: a non-empty array of settlements, each asset at most once
 * (the service would answer `settlement_asset_conflict`). Parse it with the root name
 * `settlements` so fields read `settlements.0.destination`.
 */
export const createCryptoSettlementsInputSchema = z
  .array(cryptoSettlementInputSchema, {
    // A lone settlement object instead of a list is the likely mistake; a missing list is worded by the error map.
    error: (issue) =>
      issue.code === "invalid_type" && issue.input !== undefined
        ? "must be an array of { asset, destination }"
        : undefined,
  })
  .check(
    z.refine((items) => items.length > 0, { error: "must contain at least one settlement" }),
    z.check((payload) => {
      const seen = new Map<string, number>();
      payload.value.forEach((item, index) => {
        const key = assetKey(item.asset);
        const first = seen.get(key);
        if (first === undefined) {
          seen.set(key, index);
          return;
        }
        reportProblem(
          payload,
          [index, "asset"],
          `repeats the asset of item ${first} (${item.asset}): register each asset once`,
        );
      });
    }),
  );

/** What `settlements.createCrypto` accepts: a non-empty array of `{ asset, destination }`. */
export type CreateCryptoSettlementsInput = readonly CryptoSettlementInput[];

/** The request body of `POST /v1/merchants/{merchantId}/settlements/crypto`. */
export interface CreateCryptoSettlementsBody {
  /** The settlements to register. */
  settlements: { asset: string; destination: string }[];
}

/**
 * Validates a `settlements.createCrypto` input and wraps it as the request body `{ settlements }`.
 * Issues name fields as `settlements.<index>.<field>`.
 *
 * @throws {InputValidationError} When the input is invalid (nothing should be sent).
 */
export function toCreateCryptoSettlementsBody(
  settlements: CreateCryptoSettlementsInput,
): CreateCryptoSettlementsBody {
  // Strict objects parse to their known fields only: the parsed items are the body's.
  return { settlements: parseInput(createCryptoSettlementsInputSchema, settlements, "settlements") };
}

const updateCryptoSettlementInputObject = z.strictObject({
  /** The new CAIP-10 destination account, on the same chain as the registered asset. */
  destination: caip10Schema,
});

/** What `settlements.updateCrypto` accepts: `{ destination }`. */
export interface UpdateCryptoSettlementInput extends z.input<typeof updateCryptoSettlementInputObject> {}

/**
 * Input of `settlements.updateCrypto`: the new CAIP-10 `destination` of an already registered asset.
 * The asset is not known here, so the same-chain rule cannot be checked before sending.
 */
export const updateCryptoSettlementInputSchema: z.ZodMiniType<
  UpdateCryptoSettlementInput,
  UpdateCryptoSettlementInput
> = updateCryptoSettlementInputObject;

/** The request body of `PUT /v1/merchants/{merchantId}/settlements/crypto/{id}` (not documented; our choice). */
export interface UpdateCryptoSettlementBody {
  /** The new CAIP-10 destination account. */
  destination: string;
}

/**
 * Validates a `settlements.updateCrypto` input and maps it to the request body `{ destination }`.
 *
 * @throws {InputValidationError} When the input is invalid (nothing should be sent).
 */
export function toUpdateCryptoSettlementBody(
  changes: UpdateCryptoSettlementInput,
): UpdateCryptoSettlementBody {
  return parseInput(updateCryptoSettlementInputSchema, changes);
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

const cryptoSettlementObject = responseObject({
  /** Crypto settlement id (`crypto_...`). */
  id: z.string(),
  /** CAIP-19 asset id. */
  asset: z.string(),
  /** CAIP-10 destination account. */
  destination: z.string(),
});

/** A registered crypto settlement: `{ id, asset, destination }`. */
export interface CryptoSettlement extends z.output<typeof cryptoSettlementObject> {}

/** A crypto settlement as returned by the service. Unknown fields are kept. */
export const cryptoSettlementSchema: z.ZodMiniType<CryptoSettlement> = cryptoSettlementObject;

const fiatSettlementObject = responseObject({
  /** Fiat settlement config id (`fiat_...`). */
  id: z.string(),
  /** Fiat settlement status (values not documented). */
  status: z.string(),
  /** Bank account type (values not documented). */
  bankType: z.string(),
});

/** A configured fiat settlement: `{ id, status, bankType }` (their values are not documented). */
export interface FiatSettlement extends z.output<typeof fiatSettlementObject> {}

/** A fiat settlement as returned by the service. Unknown fields are kept. */
export const fiatSettlementSchema: z.ZodMiniType<FiatSettlement> = fiatSettlementObject;

const settlementsListObject = responseObject({
  /** Fiat settlements: bank account configurations. */
  fiat: responseArray(fiatSettlementSchema, objectItem),
  /** Crypto settlements: an asset paired with a destination account on the same chain. */
  crypto: responseArray(cryptoSettlementSchema, objectItem),
});

/** The merchant's configured settlement destinations (`settlements.list`): `{ fiat, crypto }`. */
export interface SettlementsList extends z.output<typeof settlementsListObject> {}

/** Body of `GET /v1/merchants/{merchantId}/settlements`: `{ fiat, crypto }`. */
export const settlementsListSchema: z.ZodMiniType<SettlementsList> = settlementsListObject;

const cryptoSettlementsRegisteredObject = responseObject({
  /**
   * The settlements created, when the answer lists them under `crypto` (as the list operation names them, and as the
   * bundled mock answers). Every other field is kept as sent.
   */
  crypto: z.optional(responseArray(cryptoSettlementSchema, objectItem)),
});

/**
 * The answer of `settlements.createCrypto` when it has a body (with none, the call resolves to `undefined`). The
 * document does not show it, so it is tolerated whole: `crypto`, when present, is read as crypto settlements
 * (`{ id, asset, destination }`, the shape the document shows for them); every other field is kept as sent (read it
 * with `unknownField`).
 */
export interface CreateCryptoSettlementsResponse extends z.output<typeof cryptoSettlementsRegisteredObject> {}

/** Body of `POST .../settlements/crypto`: none, or an object whose `crypto` is read as crypto settlements. */
export const createCryptoSettlementsResponseSchema: z.ZodMiniType<
  CreateCryptoSettlementsResponse | undefined
> = z.optional(cryptoSettlementsRegisteredObject);

const cryptoSettlementUpdatedObject = responseObject({
  /** The settlement's CAIP-10 destination account, when the answer carries it (the bundled mock echoes it). */
  destination: z.optional(z.string()),
});

/**
 * The answer of `settlements.updateCrypto` when it has a body (with none, the call resolves to `undefined`). The
 * document does not show it, so it is tolerated whole: `destination`, the field the call changes, is typed when
 * present; every other field is kept as sent (read it with `unknownField`).
 */
export interface UpdateCryptoSettlementResponse extends z.output<typeof cryptoSettlementUpdatedObject> {}

/** Body of `PUT .../settlements/crypto/{id}`: none, or an object whose `destination` is a string when present. */
export const updateCryptoSettlementResponseSchema: z.ZodMiniType<UpdateCryptoSettlementResponse | undefined> =
  z.optional(cryptoSettlementUpdatedObject);
