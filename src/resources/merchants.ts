/**
 * `client.merchants`: the account's merchants, one line per operation over `operations.ts`.
 *
 * @module
 */
import type { APIPromise } from "../core/api-promise.js";
import type { RequestOptions } from "../core/request-options.js";
import { OPERATIONS } from "../operations.js";
import type {
  CreatedMerchant,
  CreateMerchantInput,
  ListMerchantsQuery,
  ListMerchantsResponse,
  Merchant,
} from "../schemas/merchants.js";
import { APIResource } from "./resource.js";

/** The account's merchants: the entities that receive payments (one per brand, storefront or legal entity). */
export class Merchants extends APIResource {
  /**
   * Lists the account's merchants (`GET /v1/merchants`). Items are kept as the service sends them. The query's
   * parameters are not documented, so any name passes, except a request option's (`timeoutMs`, `signal`, …): those go
   * in the second argument.
   */
  list(query?: ListMerchantsQuery, options?: RequestOptions): APIPromise<ListMerchantsResponse> {
    return this.transport.call(OPERATIONS.listMerchants, { query }, options);
  }

  /**
   * Creates a merchant (`POST /v1/merchants`). Always sent with an `Idempotency-Key` (a fresh UUID unless you pass
   * `options.idempotencyKey`), so a retry after a lost response returns the same merchant instead of a duplicate.
   * Pass your own key, stored with your record, to stay safe across process restarts too.
   */
  create(input: CreateMerchantInput, options?: RequestOptions): APIPromise<CreatedMerchant> {
    return this.transport.call(OPERATIONS.createMerchant, { body: input }, options);
  }

  /** Returns a merchant with its settlements (`GET /v1/merchants/{merchantId}`). */
  retrieve(merchantId: string, options?: RequestOptions): APIPromise<Merchant> {
    return this.transport.call(OPERATIONS.retrieveMerchant, { params: { merchantId } }, options);
  }
}
