import type { APIPromise } from "../core/api-promise.js";
import type { RequestOptions } from "../core/request.js";
import type {
  CancellationResult,
  CreatePaymentInput,
  CreatePaymentResponse,
  PaymentStatusResult,
} from "../schemas/payments.js";
import { pathSegment } from "../validate/ids.js";
import { PollingResource } from "./polling.js";

/**
 * Payments paid from a wallet link. Every operation carries `Merchant-Id`: the client's `merchantId`, or
 * `options.merchantId` per call.
 */
export class Payments extends PollingResource {
  /**
   * Creates a payment (`POST /v1/payments`) and returns its `id` and the link the buyer opens in a wallet (the
   * service's other fields are kept as sent). Not retried after a failure that may have reached the service unless
   * you pass `options.idempotencyKey`: a blind retry could create a second payment. Only the service's own
   * `rate_limited` refusal is retried without a key.
   */
  create(input: CreatePaymentInput, options?: RequestOptions): APIPromise<CreatePaymentResponse> {
    return this.transport.request(
      (schemas) => ({
        method: "POST",
        path: "/v1/payments",
        body: schemas.toCreatePaymentBody(input),
        response: schemas.createPaymentResponseSchema,
        merchantScoped: true,
      }),
      options,
    );
  }

  /** The payment's status (`GET /v1/payments/{id}/status`): `status`, `isFinal`, `pollInMs`, and `info` once succeeded. */
  status(paymentId: string, options?: RequestOptions): APIPromise<PaymentStatusResult> {
    return this.transport.request(
      (schemas) => ({
        method: "GET",
        path: `/v1/payments/${pathSegment("paymentId", paymentId)}/status`,
        response: schemas.paymentStatusResultSchema,
        merchantScoped: true,
      }),
      options,
    );
  }

  /** Cancels a payment (`POST /v1/payments/{id}/cancel`). */
  cancel(paymentId: string, options?: RequestOptions): APIPromise<CancellationResult> {
    return this.transport.request(
      (schemas) => ({
        method: "POST",
        path: `/v1/payments/${pathSegment("paymentId", paymentId)}/cancel`,
        response: schemas.cancellationResultSchema,
        merchantScoped: true,
      }),
      options,
    );
  }
}
