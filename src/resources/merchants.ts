import type { RequestOptions } from "../core/transport.js";
import {
  type CreatedMerchant,
  type CreateMerchantInput,
  createMerchantResponseSchema,
  type ListMerchantsQuery,
  type ListMerchantsResponse,
  listMerchantsQuerySchema,
  listMerchantsResponseSchema,
  type Merchant,
  retrieveMerchantResponseSchema,
  toCreateMerchantBody,
} from "../schemas/merchants.js";
import { parseInput } from "../schemas/parse.js";
import { pathSegment } from "../validate/ids.js";
import { APIResource } from "./resource.js";

/** The account's merchants: the entities that receive payments (one per brand, storefront or legal entity). */
export class Merchants extends APIResource {
  /** Lists the account's merchants (`GET /v1/merchants`). Items are kept as the service sends them. */
  async list(query?: ListMerchantsQuery, options?: RequestOptions): Promise<ListMerchantsResponse> {
    return this.transport.request(
      {
        method: "GET",
        path: "/v1/merchants",
        query: parseInput(listMerchantsQuerySchema, query, "query"),
        response: listMerchantsResponseSchema,
      },
      options,
    );
  }

  /**
   * Creates a merchant (`POST /v1/merchants`). Always sent with an `Idempotency-Key` (a fresh UUID unless you pass
   * `options.idempotencyKey`), so a retry after a lost answer returns the same merchant instead of a duplicate.
   * Pass your own key, stored with your record, to stay safe across process restarts too.
   */
  async create(input: CreateMerchantInput, options?: RequestOptions): Promise<CreatedMerchant> {
    const { merchant } = await this.transport.request(
      {
        method: "POST",
        path: "/v1/merchants",
        body: toCreateMerchantBody(input),
        response: createMerchantResponseSchema,
        idempotencyKey: "always",
      },
      options,
    );
    return merchant;
  }

  /** Returns a merchant with its settlements (`GET /v1/merchants/{merchantId}`). */
  async retrieve(merchantId: string, options?: RequestOptions): Promise<Merchant> {
    const { merchant } = await this.transport.request(
      {
        method: "GET",
        path: `/v1/merchants/${pathSegment("merchantId", merchantId)}`,
        response: retrieveMerchantResponseSchema,
      },
      options,
    );
    return merchant;
  }
}
