/**
 * The merchants of the mock (every account, both modes) and their settlement destinations.
 *
 * @module
 */

import { MockServiceError } from "./errors.js";
import { randomId } from "./random.js";
import type { MockCryptoSettlement, MockFiatSettlement, MockMerchantRecord, MockMode } from "./types.js";
import { parseAccount, parseAsset } from "./validation.js";

/** What a new merchant is made of. */
export interface NewMerchant {
  /** `mrch_…`; generated when omitted. */
  id?: string | undefined;
  /** Display name. */
  name: string;
  /** Contact e-mail or null. */
  email: string | null;
  /** Logo URL or null. */
  iconUrl?: string | null | undefined;
  /** Default `active`. */
  status?: MockMerchantRecord["status"] | undefined;
}

const STATUSES: ReadonlySet<string> = new Set(["active", "inactive", "suspended"]);

const invalid = (message: string, field: string): MockServiceError =>
  new MockServiceError(400, "invalid_request", message, { field });

/**
 * Throws unless `input` can be a merchant. Seeds come from JSON files and `POST /__mock/accounts`: a name that is not
 * a string would break every page.
 */
export function checkNewMerchant(input: NewMerchant): void {
  if (typeof input.name !== "string" || input.name.trim() === "") {
    throw invalid("a merchant's name must be a non-empty string", "name");
  }
  if (input.email !== null && typeof input.email !== "string") {
    throw invalid("a merchant's email must be a string or null", "email");
  }
  if (input.iconUrl !== undefined && input.iconUrl !== null && typeof input.iconUrl !== "string") {
    throw invalid("a merchant's iconUrl must be a string or null", "iconUrl");
  }
  if (input.status !== undefined && !STATUSES.has(input.status)) {
    throw invalid("a merchant's status must be active, inactive or suspended", "status");
  }
  if (input.id !== undefined && (typeof input.id !== "string" || input.id === "")) {
    throw invalid("a merchant's id must be a non-empty string", "id");
  }
}

/** Merchants by id. */
export class MerchantStore {
  readonly #merchants = new Map<string, MockMerchantRecord>();

  /** Creates the store over the mock clock. */
  constructor(private readonly now: () => number) {}

  /** A merchant, or undefined. */
  find(id: string): MockMerchantRecord | undefined {
    return this.#merchants.get(id);
  }

  /** Every merchant. */
  list(): MockMerchantRecord[] {
    return [...this.#merchants.values()];
  }

  /** The merchants of one account in one mode. */
  of(accountId: string, mode: MockMode): MockMerchantRecord[] {
    return this.list().filter((m) => m.accountId === accountId && m.mode === mode);
  }

  /** Creates a merchant (status `active` unless given). */
  create(accountId: string, mode: MockMode, input: NewMerchant): MockMerchantRecord {
    checkNewMerchant(input);
    const id = input.id ?? randomId("mrch_");
    if (this.#merchants.has(id)) throw invalid(`merchant ${id} already exists`, "id");
    const merchant: MockMerchantRecord = {
      id,
      accountId,
      mode,
      name: input.name,
      email: input.email,
      status: input.status ?? "active",
      iconUrl: input.iconUrl ?? null,
      createdAt: this.now(),
      settlements: { crypto: [], fiat: [] },
    };
    this.#merchants.set(id, merchant);
    return merchant;
  }

  /**
   * Validates and adds crypto settlements atomically (all or none): 400 `invalid_request` for bad CAIP ids or a
   * chain mismatch, 409 `settlement_asset_conflict` when an asset is already registered (or repeated in the call).
   */
  addCrypto(
    merchant: MockMerchantRecord,
    items: { asset: unknown; destination: unknown; id?: string | undefined }[],
  ): MockCryptoSettlement[] {
    const seen = new Set(merchant.settlements.crypto.map((c) => c.asset.toLowerCase()));
    const created: MockCryptoSettlement[] = [];
    items.forEach((item, i) => {
      const { asset, destination } = checkSettlementPair(item.asset, item.destination, `settlements.${i}`);
      if (seen.has(asset.toLowerCase())) {
        throw new MockServiceError(
          409,
          "settlement_asset_conflict",
          `Asset ${asset} is already registered for merchant ${merchant.id}.`,
          { asset, merchantId: merchant.id },
        );
      }
      seen.add(asset.toLowerCase());
      created.push({ id: item.id ?? randomId("crypto_"), asset, destination });
    });
    merchant.settlements.crypto.push(...created);
    return created;
  }

  /** Adds fiat settlements (seeding is the only way they exist). */
  addFiat(merchant: MockMerchantRecord, items: MockFiatSettlement[]): void {
    merchant.settlements.fiat.push(...items);
  }

  /** Changes the destination of a crypto settlement (404 when unknown, 400 when invalid). */
  updateCrypto(merchant: MockMerchantRecord, id: string, destination: unknown): MockCryptoSettlement {
    const settlement = merchant.settlements.crypto.find((c) => c.id === id);
    if (!settlement)
      throw new MockServiceError(404, "not_found", `No crypto settlement ${id} for this merchant.`);
    settlement.destination = checkSettlementPair(settlement.asset, destination, "").destination;
    return settlement;
  }

  /** Forgets every merchant of an account (a creation refused after they were added is undone). */
  removeAccount(accountId: string): void {
    for (const [id, merchant] of this.#merchants)
      if (merchant.accountId === accountId) this.#merchants.delete(id);
  }

  /** Forgets everything. */
  clear(): void {
    this.#merchants.clear();
  }
}

function checkSettlementPair(
  assetIn: unknown,
  destinationIn: unknown,
  at: string,
): { asset: string; destination: string } {
  const prefix = at ? `${at}.` : "";
  const asset = parseAsset(assetIn);
  if (typeof asset === "string") throw invalid(`${prefix}asset ${asset}.`, `${prefix}asset`);
  const dest = parseAccount(destinationIn);
  if (typeof dest === "string") throw invalid(`${prefix}destination ${dest}.`, `${prefix}destination`);
  if (dest.chainId !== asset.chainId) {
    throw invalid(
      `${prefix}destination is on ${dest.chainId} but the asset is on ${asset.chainId}; they must be on the same chain.`,
      `${prefix}destination`,
    );
  }
  return { asset: assetIn as string, destination: destinationIn as string };
}
