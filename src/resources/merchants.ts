import type { APIPromise } from "../core/api-promise.js";
import { REQUEST_OPTION_NAMES, type RequestOptions } from "../core/request.js";
import type {
  CreatedMerchant,
  CreateMerchantInput,
  ListMerchantsQuery,
  ListMerchantsResponse,
  Merchant,
} from "../schemas/merchants.js";
import { pathSegment } from "../validate/ids.js";
import { invalidInput, isRecord } from "../validate/issues.js";
import { APIResource } from "./resource.js";

/** The account's merchants: the entities that receive payments (one per brand, storefront or legal entity). */
export class Merchants extends APIResource {
  /**
   * Lists the account's merchants (`GET /v1/merchants`). Items are kept as the service sends them. The query's
   * parameters are not documented, so any name passes, except a request option's (`timeoutMs`, `signal`, …): those go
   * in the second argument.
   */
  list(query?: ListMerchantsQuery, options?: RequestOptions): APIPromise<ListMerchantsResponse> {
    return this.transport.request(
      (schemas) => ({
        method: "GET",
        path: "/v1/merchants",
        query: schemas.parseInput(schemas.listMerchantsQuerySchema, refuseMisplacedOptions(query), "query"),
        response: schemas.listMerchantsResponseSchema,
      }),
      options,
    );
  }

  /**
   * Creates a merchant (`POST /v1/merchants`). Always sent with an `Idempotency-Key` (a fresh UUID unless you pass
   * `options.idempotencyKey`), so a retry after a lost answer returns the same merchant instead of a duplicate.
   * Pass your own key, stored with your record, to stay safe across process restarts too.
   */
  create(input: CreateMerchantInput, options?: RequestOptions): APIPromise<CreatedMerchant> {
    return this.transport
      .request(
        (schemas) => ({
          method: "POST",
          path: "/v1/merchants",
          body: schemas.toCreateMerchantBody(input),
          response: schemas.createMerchantResponseSchema,
          idempotencyKey: "always",
        }),
        options,
      )
      .map(({ merchant }) => merchant);
  }

  /** Returns a merchant with its settlements (`GET /v1/merchants/{merchantId}`). */
  retrieve(merchantId: string, options?: RequestOptions): APIPromise<Merchant> {
    return this.transport
      .request(
        (schemas) => ({
          method: "GET",
          path: `/v1/merchants/${pathSegment("merchantId", merchantId)}`,
          response: schemas.retrieveMerchantResponseSchema,
        }),
        options,
      )
      .map(({ merchant }) => merchant);
  }
}

/**
 * `merchants.list({ timeoutMs: 5 })` means a request option, not a query parameter named `timeoutMs`: sending it to
 * the service would drop the option silently.
 */
function refuseMisplacedOptions(query: unknown): unknown {
  if (!isRecord(query)) return query;
  const name = REQUEST_OPTION_NAMES.find((option) => option in query);
  if (name !== undefined) {
    throw invalidInput(
      `query.${name}`,
      `is a request option: pass it as the second argument, merchants.list(query, { ${name} })`,
    );
  }
  return query;
}
