/**
 * `client.payments`: wallet-link payments, one line per operation over `operations.ts`, and polling.
 *
 * @module
 */
import type { APIPromise } from "../core/api-promise.js";
import type { RequestOptions } from "../core/request-options.js";
import { OPERATIONS } from "../operations.js";
import type {
  CancellationResult,
  CreatePaymentInput,
  CreatePaymentResponse,
  PaymentStatusResult,
} from "../schemas/payments.js";
import { PollingResource } from "./polling.js";

/**
 * Payments paid from a wallet link. Every operation carries `Merchant-Id`: the client's `merchantId`, or
 * `options.merchantId` per call.
 */
export class Payments extends PollingResource {
  /**
   * Creates a payment (`POST /v1/payments`) and returns its `id` and the link the buyer opens in a wallet (the
   * service's other fields are kept as sent). Always sent with an `Idempotency-Key` (a fresh UUID unless you pass
   * `options.idempotencyKey`), so a retry after a lost response or a rate limit never creates a second payment. Pass
   * your own key, stored with your order, to stay safe across process restarts too.
   */
  create(input: CreatePaymentInput, options?: RequestOptions): APIPromise<CreatePaymentResponse> {
    return this.transport.call(OPERATIONS.createPayment, { body: input }, options);
  }

  /** The payment's status (`GET /v1/payments/{id}/status`): `status`, `isFinal`, `pollInMs`, and `info` once succeeded. */
  status(paymentId: string, options?: RequestOptions): APIPromise<PaymentStatusResult> {
    return this.transport.call(OPERATIONS.paymentStatus, { params: { paymentId } }, options);
  }

  /** Cancels a payment (`POST /v1/payments/{id}/cancel`). */
  cancel(paymentId: string, options?: RequestOptions): APIPromise<CancellationResult> {
    return this.transport.call(OPERATIONS.cancelPayment, { params: { paymentId } }, options);
  }
}
