/**
 * The service's operations as data: one row per operation of the interface document, with its method, path
 * template, whether it carries `Merchant-Id`, how it is keyed, the rule its input is checked by and the schema its
 * response must match. The transport reads a row and does the rest; each resource method is one line over its row.
 *
 * Rules and schemas are named, not held: this table is plain data, so importing the SDK loads no schema (the
 * transport loads them with the first call, `schemas/load.ts`).
 *
 * @module
 */
import type * as z from "zod/mini";
import type { Schemas } from "./schemas/load.js";

/** The HTTP methods an operation may use: the interface's (GET, POST, PUT), and PATCH and DELETE for custom ones. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The names of the response schemas among the loaded schemas. */
export type ResponseSchemaName = {
  [K in keyof Schemas]: Schemas[K] extends z.core.$ZodType ? K : never;
}[keyof Schemas];

/** The rules that turn a method's input into a request body (they check it first), by name. */
export type BodyRule = Extract<keyof Schemas, `to${string}Body`>;

/** The rules that check a query, by name (the schema of the query); `flatQuerySchema` is custom operations'. */
export type QueryRule = "listMerchantsQuerySchema" | "flatQuerySchema";

/** One operation of the interface. */
export interface OperationRow {
  /** How the method is called, as hints quote it (`payments.status(paymentId, options)`). */
  readonly call: string;
  readonly method: HttpMethod;
  /**
   * Path template below the base URL, in the interface document's form: literal segments and `{name}` parameters,
   * each filled with an encoded id (`validate/path-template.ts`).
   */
  readonly path: string;
  /** Payment operations carry `Merchant-Id`, from the call or the client; without one nothing is sent. */
  readonly merchantScoped: boolean;
  /**
   * `"always"` (every POST): a fresh UUID is sent as `Idempotency-Key` unless the caller gives one, so the service
   * replays instead of acting twice, and the call may be retried. `"given"` (GET and PUT, idempotent in HTTP): a key
   * is sent only when the caller gives one.
   */
  readonly idempotencyKey: "always" | "given";
  /** The rule that checks the input and builds the JSON body; none: no body is sent. */
  readonly body?: BodyRule;
  /** The rule that checks the query; none: no query is sent. */
  readonly query?: QueryRule;
  /** The schema the 2xx body must match: one of the SDK's, by name, or a custom operation's own. */
  readonly response: ResponseSchemaName | z.core.$ZodType;
  /** A field of the response that is the result (`{ merchant }` → the merchant). */
  readonly unwrap?: "merchant";
}

/** Every operation of the interface document. */
export const OPERATIONS = {
  listMerchants: {
    call: "merchants.list(query, options)",
    method: "GET",
    path: "/v1/merchants",
    merchantScoped: false,
    idempotencyKey: "given",
    query: "listMerchantsQuerySchema",
    response: "listMerchantsResponseSchema",
  },
  createMerchant: {
    call: "merchants.create(input, options)",
    method: "POST",
    path: "/v1/merchants",
    merchantScoped: false,
    idempotencyKey: "always",
    body: "toCreateMerchantBody",
    response: "createMerchantResponseSchema",
    unwrap: "merchant",
  },
  retrieveMerchant: {
    call: "merchants.retrieve(merchantId, options)",
    method: "GET",
    path: "/v1/merchants/{merchantId}",
    merchantScoped: false,
    idempotencyKey: "given",
    response: "retrieveMerchantResponseSchema",
    unwrap: "merchant",
  },
  listSettlements: {
    call: "settlements.list(merchantId, options)",
    method: "GET",
    path: "/v1/merchants/{merchantId}/settlements",
    merchantScoped: false,
    idempotencyKey: "given",
    response: "settlementsListSchema",
  },
  createCryptoSettlements: {
    call: "settlements.createCrypto(merchantId, settlements, options)",
    method: "POST",
    path: "/v1/merchants/{merchantId}/settlements/crypto",
    merchantScoped: false,
    idempotencyKey: "always",
    body: "toCreateCryptoSettlementsBody",
    response: "createCryptoSettlementsResponseSchema",
  },
  updateCryptoSettlement: {
    call: "settlements.updateCrypto(merchantId, settlementId, changes, options)",
    method: "PUT",
    path: "/v1/merchants/{merchantId}/settlements/crypto/{settlementId}",
    merchantScoped: false,
    idempotencyKey: "given",
    body: "toUpdateCryptoSettlementBody",
    response: "updateCryptoSettlementResponseSchema",
  },
  createPayment: {
    call: "payments.create(input, options)",
    method: "POST",
    path: "/v1/payments",
    merchantScoped: true,
    idempotencyKey: "always",
    body: "toCreatePaymentBody",
    response: "createPaymentResponseSchema",
  },
  paymentStatus: {
    call: "payments.status(paymentId, options)",
    method: "GET",
    path: "/v1/payments/{paymentId}/status",
    merchantScoped: true,
    idempotencyKey: "given",
    response: "paymentStatusResultSchema",
  },
  cancelPayment: {
    call: "payments.cancel(paymentId, options)",
    method: "POST",
    path: "/v1/payments/{paymentId}/cancel",
    merchantScoped: true,
    idempotencyKey: "always",
    response: "cancellationResultSchema",
  },
  createCheckout: {
    call: "checkout.create(input, options)",
    method: "POST",
    path: "/v1/merchant/payment",
    merchantScoped: true,
    idempotencyKey: "always",
    body: "toCreateCheckoutBody",
    response: "createCheckoutResponseSchema",
  },
  checkoutStatus: {
    call: "checkout.status(paymentId, options)",
    method: "GET",
    path: "/v1/merchant/payment/{paymentId}/status",
    merchantScoped: true,
    idempotencyKey: "given",
    response: "checkoutStatusResultSchema",
  },
  fetchAction: {
    call: "gateway.fetchAction(paymentId, input, options)",
    method: "POST",
    path: "/v1/gateway/payment/{paymentId}/fetch",
    merchantScoped: false,
    idempotencyKey: "always",
    body: "toFetchActionBody",
    response: "fetchActionSchema",
  },
} as const satisfies Record<string, OperationRow>;

/** The name of an operation, e.g. `createPayment`. */
export type OperationName = keyof typeof OPERATIONS;

/** What a call of `row` resolves to: its response schema's output, unwrapped when the row says so. */
export type ResultOf<R extends OperationRow> = R extends { unwrap: infer U extends string }
  ? OutputOf<R["response"]>[U & keyof OutputOf<R["response"]>]
  : OutputOf<R["response"]>;

/** The output of a row's response schema, named or held. */
type OutputOf<S extends OperationRow["response"]> = S extends ResponseSchemaName
  ? z.output<Schemas[S]>
  : S extends z.core.$ZodType
    ? z.output<S>
    : never;

/** What a method hands the transport besides its row: the path's ids, and the inputs of the body and query rules. */
export interface CallInput {
  /** The `{name}` parameters of the path, unchecked (the transport checks and encodes each). */
  params?: Readonly<Record<string, unknown>>;
  /** The input the row's `body` rule checks and turns into the JSON body. */
  body?: unknown;
  /** The input the row's `query` rule checks. */
  query?: unknown;
}
