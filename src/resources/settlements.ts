/**
 * `client.settlements`: a merchant's settlement destinations, one line per operation over `operations.ts`.
 *
 * @module
 */
import type { APIPromise } from "../core/api-promise.js";
import type { RequestOptions } from "../core/request-options.js";
import { OPERATIONS } from "../operations.js";
import type {
  CreateCryptoSettlementsInput,
  CreateCryptoSettlementsResponse,
  SettlementsList,
  UpdateCryptoSettlementInput,
  UpdateCryptoSettlementResponse,
} from "../schemas/settlements.js";
import { APIResource } from "./resource.js";

/** Where a merchant's funds go: crypto (an asset and a destination account on its chain) and fiat (bank) settlements. */
export class Settlements extends APIResource {
  /** Lists the merchant's settlement destinations (`GET /v1/merchants/{merchantId}/settlements`). */
  list(merchantId: string, options?: RequestOptions): APIPromise<SettlementsList> {
    return this.transport.call(OPERATIONS.listSettlements, { params: { merchantId } }, options);
  }

  /**
   * Registers crypto settlements (`POST …/settlements/crypto`): one or more `{ asset, destination }`, each
   * destination on its asset's chain. Sent with an `Idempotency-Key`, so a retry cannot register twice; an asset
   * already registered for the merchant fails with a `ConflictError` whose `code` is `settlement_asset_conflict`
   * (use `updateCrypto` to change its destination). The response body is not documented: its `crypto` is read as
   * crypto settlements, the rest kept as sent; with no body the call resolves to `undefined`.
   */
  createCrypto(
    merchantId: string,
    settlements: CreateCryptoSettlementsInput,
    options?: RequestOptions,
  ): APIPromise<CreateCryptoSettlementsResponse | undefined> {
    const input = { params: { merchantId }, body: settlements };
    return this.transport.call(OPERATIONS.createCryptoSettlements, input, options);
  }

  /**
   * Changes the destination of a registered crypto settlement (`PUT …/settlements/crypto/{id}`), `id` being the
   * crypto settlement id (`crypto_…`). The response body is not documented: its `destination` is typed when present,
   * the rest kept as sent; with no body the call resolves to `undefined`.
   */
  updateCrypto(
    merchantId: string,
    settlementId: string,
    changes: UpdateCryptoSettlementInput,
    options?: RequestOptions,
  ): APIPromise<UpdateCryptoSettlementResponse | undefined> {
    const input = { params: { merchantId, settlementId }, body: changes };
    return this.transport.call(OPERATIONS.updateCryptoSettlement, input, options);
  }
}
