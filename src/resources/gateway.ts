/**
 * `client.gateway`: the wallet-facing operation, one line over `operations.ts`.
 *
 * @module
 */
import type { APIPromise } from "../core/api-promise.js";
import type { RequestOptions } from "../core/request-options.js";
import { OPERATIONS } from "../operations.js";
import type { FetchActionInput, FetchActionResponse } from "../schemas/gateway.js";
import { APIResource } from "./resource.js";

/** Wallet-facing operations. */
export class Gateway extends APIResource {
  /**
   * Fetches the actions the buyer's wallet must perform to pay (`POST /v1/gateway/payment/{id}/fetch`). A
   * `walletRpc` action also carries its decoded EIP-712 typed data, with the hex quantities as bigint; action types
   * this SDK does not know are returned as the service sent them.
   */
  fetchAction(
    paymentId: string,
    input?: FetchActionInput,
    options?: RequestOptions,
  ): APIPromise<FetchActionResponse> {
    return this.transport.call(OPERATIONS.fetchAction, { params: { paymentId }, body: input }, options);
  }
}
