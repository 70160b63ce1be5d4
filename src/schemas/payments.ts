/**
 * Payment schemas: the create input (and its request body), the create response, the status result
 * (shared by both status operations) and the cancellation result.
 *
 * @module
 */
import * as z from "zod/mini";
import {
  CANCELLATION_REASONS,
  findWalletLink,
  isTerminalPaymentStatus,
  type KnownPaymentStatus,
  PAYMENT_STATUSES,
  WALLET_LINK_FIELDS,
} from "../model/payments.js";
import {
  amountSchema,
  iso4217AmountInputSchema,
  nonEmptyStringSchema,
  type OpenEnum,
  openEnum,
  reportProblem,
  responseObject,
} from "./common.js";
import { parseInput } from "./input.js";
import { keepOpen } from "./strictness.js";
import { decisive, finishing } from "./parse.js";

export {
  CANCELLATION_REASONS,
  findWalletLink,
  isFulfillable,
  isTerminalPaymentStatus,
  type KnownPaymentStatus,
  PAYMENT_STATUSES,
  TERMINAL_PAYMENT_STATUSES,
  type TerminalPaymentStatus,
  WALLET_LINK_FIELDS,
} from "../model/payments.js";

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

const createPaymentInputObject = z.strictObject({
  /** The merchant's own order identifier (non-empty; sent as given). */
  referenceId: nonEmptyStringSchema,
  /** The requested amount, `{ unit: "iso4217/USD", value: "1050" }`. */
  amount: iso4217AmountInputSchema,
});

/** What `payments.create` accepts: `{ referenceId, amount }`. */
export interface CreatePaymentInput extends z.input<typeof createPaymentInputObject> {}

/** Input of `payments.create`: the merchant's order id and an `iso4217/...` amount in minor units. */
export const createPaymentInputSchema: z.ZodMiniType<CreatePaymentInput, CreatePaymentInput> =
  createPaymentInputObject;

/** The request body of `POST /v1/payments`. */
export interface CreatePaymentBody {
  /** The merchant's own order identifier. */
  referenceId: string;
  /** The requested amount. */
  amount: { unit: string; value: string };
}

/**
 * Validates a `payments.create` input and maps it to the request body `{ referenceId, amount }`.
 *
 * @throws {InputValidationError} When the input is invalid (nothing should be sent).
 */
export function toCreatePaymentBody(input: CreatePaymentInput): CreatePaymentBody {
  // A strict object parses to its known fields only: the parsed input is the body.
  return parseInput(createPaymentInputSchema, input);
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/**
 * The answer the check below last read and the link it found there, for the finishing step of the same parse (zod
 * runs the check and then the finish in one synchronous pass, on the same object): one search of the answer instead
 * of two, each a URL parse. The finish takes it only for that very object, and drops it.
 */
let checkedAnswer: object | undefined;
let checkedLink: string | undefined;

/** The answer of `POST /v1/payments` as sent: the id under `id` or `paymentId`, and a wallet link somewhere. */
const createPaymentAnswerSchema = keepOpen(
  z
    .looseObject({
      /** Payment id (`pay_...`), as the document names it. */
      id: z.optional(z.string()),
      /** Payment id, as the checkout creation names it. */
      paymentId: z.optional(z.string()),
    })
    .check(
      z.check((payload) => {
        const answer = payload.value;
        if (answer.id === undefined && answer.paymentId === undefined) {
          reportProblem(payload, ["id"], "is required (as id or paymentId)");
        } else if (
          answer.id !== undefined &&
          answer.paymentId !== undefined &&
          answer.id !== answer.paymentId
        ) {
          reportProblem(payload, ["paymentId"], "must equal id when both are sent");
        }
        const link = findWalletLink(answer);
        checkedAnswer = answer;
        checkedLink = link;
        if (link === undefined) {
          reportProblem(
            payload,
            ["link"],
            `is required: a wallet link in one of ${WALLET_LINK_FIELDS.join(", ")}, or in one other field`,
          );
        }
      }),
    ),
);

/**
 * A created payment (`payments.create`), under names that do not depend on how the service spells them. The
 * service's own fields are kept too, as sent.
 */
export interface CreatePaymentResponse {
  /** Payment id (`pay_...`): the answer's `id`, or its `paymentId` when it has no `id`. Store it with the order. */
  id: string;
  /**
   * The link the buyer opens in a wallet, to render as a QR code or a button: an `https:` URL or a wallet URI (such
   * as `ethereum:...`). Where it is found: {@link findWalletLink}.
   */
  link: string;
}

/** Gives the answer its stable names; in tolerant mode a name whose value is not there stays absent. */
function toCreatedPayment(answer: Record<string, unknown>): CreatePaymentResponse {
  const created: Record<string, unknown> = { ...answer };
  if (created.id === undefined && typeof answer.paymentId === "string") created.id = answer.paymentId;
  const link = answer === checkedAnswer ? checkedLink : findWalletLink(answer);
  checkedAnswer = checkedLink = undefined;
  if (link !== undefined) created.link = link;
  return created as unknown as CreatePaymentResponse;
}

/**
 * Body of `POST /v1/payments`, read into a {@link CreatePaymentResponse}: the id from `id` or `paymentId`, the wallet
 * link from the first field that holds one (see {@link findWalletLink}). Every other field is kept as sent.
 *
 * The id and the link are read strictly in every mode: the merchant stores one and sends the buyer to the other, so
 * an answer without them, or whose `id` and `paymentId` differ, fails with a `ResponseValidationError`. Two ids name
 * two payments and nothing says which one the link pays: polling one while the buyer pays the other would never
 * fulfil the order (or fulfil it on the wrong payment), so neither is picked.
 */
export const createPaymentResponseSchema = decisive(finishing(createPaymentAnswerSchema, toCreatedPayment), [
  "id",
  "paymentId",
  "link",
]);

/** Payment status (open: a status added later by the service still parses). */
export const paymentStatusSchema: z.ZodMiniType<PaymentStatus, unknown> = openEnum(PAYMENT_STATUSES);

/** A payment status: a documented one, or another string the service may add. */
export type PaymentStatus = OpenEnum<KnownPaymentStatus>;

const paymentInfoObject = responseObject({
  /** Transaction id; in test mode synthetic (`test:<payment_id>`). */
  txId: z.optional(z.string()),
  /** The amount in the paid asset (`caip19/...` unit). */
  optionAmount: z.optional(amountSchema),
});

/** Extra information on a status result: on a succeeded payment, `txId` and `optionAmount`. */
export interface PaymentInfo extends z.output<typeof paymentInfoObject> {}

/** `info` of a status result: on a succeeded payment it holds `txId` and `optionAmount`. */
export const paymentInfoSchema: z.ZodMiniType<PaymentInfo> = paymentInfoObject;

/** The status result's own rules: `isFinal` agrees with `status`, no hint once final, proof on success. */
function checkStatusRules(payload: z.core.ParsePayload<PaymentStatusResult>): void {
  const result = payload.value;
  const terminal = isTerminalPaymentStatus(result.status);
  if (result.isFinal !== terminal) {
    // Never quote the status: it is a received value, and drift never quotes one.
    const expected = terminal
      ? "true when status is terminal"
      : "false when status is not a documented terminal one";
    reportProblem(payload, ["isFinal"], `must be ${expected}`);
  }
  if (result.isFinal && result.pollInMs != null) {
    reportProblem(payload, ["pollInMs"], "must be null when isFinal is true");
  }
  if (result.status !== "succeeded") return;
  if (typeof result.info?.txId !== "string") {
    reportProblem(payload, ["info", "txId"], "is required on a succeeded payment");
  }
  const amount = result.info?.optionAmount;
  if (amount === undefined) {
    reportProblem(payload, ["info", "optionAmount"], "is required on a succeeded payment");
  } else if (!amount.unit.startsWith("caip19/")) {
    reportProblem(payload, ["info", "optionAmount", "unit"], 'must be a "caip19/..." unit');
  }
}

const paymentStatusResultObject = responseObject({
  /** Payment status. */
  status: paymentStatusSchema,
  /** True when `status` is terminal. */
  isFinal: z.boolean(),
  /** Milliseconds to wait before polling again; null (or absent) once final. */
  pollInMs: z.optional(
    z.nullable(
      z.custom<number>((ms) => Number.isSafeInteger(ms) && (ms as number) >= 0, {
        error: "must be a non-negative integer (milliseconds)",
      }),
    ),
  ),
  /** Present on a succeeded payment. */
  info: z.optional(z.nullable(paymentInfoSchema)),
});

/**
 * A payment status result. Fulfil an order only when {@link isFulfillable} says so (`status` is `succeeded` and
 * `isFinal` is `true`); stop polling on `isFinal === true` with a terminal status.
 */
export interface PaymentStatusResult extends z.output<typeof paymentStatusResultObject> {}

/**
 * The payment status result (`GET /v1/payments/{id}/status` and `GET /v1/merchant/payment/{paymentId}/status`). The
 * interface rule is checked: `isFinal` is true exactly when `status` is terminal, and then `pollInMs` is null or
 * absent; a succeeded result carries `info.txId` and `info.optionAmount` (`caip19/...` unit). Read strictly, a
 * deviation fails; read tolerantly, the answer is returned as it arrived and each deviation is drift (an unknown
 * status claiming to be final is then still never final for {@link isFulfillable} or the polling).
 */
export const paymentStatusResultSchema: z.ZodMiniType<PaymentStatusResult> = decisive(
  paymentStatusResultObject.check(checkStatusRules),
  // Polling and fulfilment decide on `status`: without a string there, there is nothing to decide on.
  ["status"],
);

const cancellationResultObject = responseObject({
  /** ISO 8601 timestamp of the cancellation. */
  cancelledAt: z.string(),
  /** Why it was cancelled (open: `cancelled_by_merchant` or a later value). */
  cancelledReason: openEnum(CANCELLATION_REASONS),
  /** Payment id. */
  paymentId: z.string(),
  /** Payment status (`cancelled`). */
  status: paymentStatusSchema,
});

/** The result of cancelling a payment: `{ cancelledAt, cancelledReason, paymentId, status }`. */
export interface CancellationResult extends z.output<typeof cancellationResultObject> {}

/** Body of `POST /v1/payments/{id}/cancel`. Unknown fields are kept. */
export const cancellationResultSchema: z.ZodMiniType<CancellationResult> = cancellationResultObject;
