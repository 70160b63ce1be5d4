/**
 * Payment schemas: the create input (and its wire body), the create response, the status result
 * (shared by both status operations) and the cancellation result.
 *
 * @module
 */
import * as z from "zod/mini";
import {
  amountSchema,
  iso4217AmountInputSchema,
  nonEmptyStringSchema,
  type OpenEnum,
  openEnum,
} from "./common.js";
import { parseInput } from "./parse.js";

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** Input of `payments.create`: the merchant's order id and an `iso4217/...` amount in minor units. */
export const createPaymentInputSchema = z.strictObject({
  /** The merchant's own order identifier (non-empty; sent as given). */
  referenceId: nonEmptyStringSchema,
  /** The requested amount, `{ unit: "iso4217/USD", value: "1050" }`. */
  amount: iso4217AmountInputSchema,
});

/** What `payments.create` accepts: `{ referenceId, amount }`. */
export type CreatePaymentInput = z.input<typeof createPaymentInputSchema>;

/** The wire body of `POST /v1/payments`. */
export interface CreatePaymentBody {
  /** The merchant's own order identifier. */
  referenceId: string;
  /** The requested amount. */
  amount: { unit: string; value: string };
}

/**
 * Validates a `payments.create` input and maps it to the wire body `{ referenceId, amount }`.
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
 * Body of `POST /v1/payments`: the payment `id` plus the wallet link, whose field name is not
 * documented; every other field is kept as is.
 */
export const createPaymentResponseSchema = z.looseObject({
  /** Payment id (`pay_...`). */
  id: z.string(),
});

/** Body of `POST /v1/payments`. */
export type CreatePaymentResponse = z.output<typeof createPaymentResponseSchema>;

/** Every payment status the interface documents. Others may appear and still parse. */
export const PAYMENT_STATUSES = [
  "requires_action",
  "processing",
  "succeeded",
  "failed",
  "expired",
  "cancelled",
] as const;

/** A documented payment status. */
export type KnownPaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The statuses after which a payment never changes again (`isFinal` is true exactly for these). */
export const TERMINAL_PAYMENT_STATUSES = ["succeeded", "failed", "expired", "cancelled"] as const;

/** A terminal payment status. */
export type TerminalPaymentStatus = (typeof TERMINAL_PAYMENT_STATUSES)[number];

const TERMINAL = new Set<string>(TERMINAL_PAYMENT_STATUSES);

/**
 * True when `status` is one of the documented terminal statuses. An unknown status is never
 * terminal.
 */
export function isTerminalPaymentStatus(status: string): status is TerminalPaymentStatus {
  return TERMINAL.has(status);
}

/** Payment status (open: a status added later by the service still parses). */
export const paymentStatusSchema = openEnum(PAYMENT_STATUSES);

/** A payment status: a documented one, or another string the service may add. */
export type PaymentStatus = OpenEnum<KnownPaymentStatus>;

/** `info` of a status result: on a succeeded payment it holds `txId` and `optionAmount`. */
export const paymentInfoSchema = z.looseObject({
  /** Transaction id; in test mode synthetic (`test:<payment_id>`). */
  txId: z.optional(z.string()),
  /** The amount in the paid asset (`caip19/...` unit). */
  optionAmount: z.optional(amountSchema),
});

/** Extra information on a status result (shape documented for succeeded payments only). */
export type PaymentInfo = z.output<typeof paymentInfoSchema>;

/**
 * The payment status result (`GET /v1/payments/{id}/status` and
 * `GET /v1/merchant/payment/{paymentId}/status`). The interface rule is enforced: `isFinal` is
 * true exactly when `status` is terminal, and then `pollInMs` is null or absent; an unknown status
 * claiming to be final is refused, so an unknown status is never treated as final. A succeeded
 * result must carry `info.txId` and `info.optionAmount` (`caip19/...` unit).
 */
export const paymentStatusResultSchema = z
  .looseObject({
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
  })
  .check(
    z.superRefine((result, ctx) => {
      const terminal = isTerminalPaymentStatus(result.status);
      if (result.isFinal !== terminal) {
        ctx.addIssue({
          code: "custom",
          path: ["isFinal"],
          message: `must be ${terminal} when status is "${result.status}"`,
        });
      }
      if (result.isFinal && result.pollInMs != null) {
        ctx.addIssue({ code: "custom", path: ["pollInMs"], message: "must be null when isFinal is true" });
      }
      if (result.status === "succeeded") {
        if (typeof result.info?.txId !== "string") {
          ctx.addIssue({
            code: "custom",
            path: ["info", "txId"],
            message: "is required on a succeeded payment",
          });
        }
        const amount = result.info?.optionAmount;
        if (amount === undefined) {
          ctx.addIssue({
            code: "custom",
            path: ["info", "optionAmount"],
            message: "is required on a succeeded payment",
          });
        } else if (!amount.unit.startsWith("caip19/")) {
          ctx.addIssue({
            code: "custom",
            path: ["info", "optionAmount", "unit"],
            message: 'must be a "caip19/..." unit',
          });
        }
      }
    }),
  );

/** A payment status result. Use `isFinal` (or {@link isTerminalPaymentStatus}) to stop polling. */
export type PaymentStatusResult = z.output<typeof paymentStatusResultSchema>;

/** The known cancellation reasons. Others may appear and still parse. */
export const CANCELLATION_REASONS = ["cancelled_by_merchant"] as const;

/** Body of `POST /v1/payments/{id}/cancel`. Unknown fields are kept. */
export const cancellationResultSchema = z.looseObject({
  /** ISO 8601 timestamp of the cancellation. */
  cancelledAt: z.string(),
  /** Why it was cancelled (open: `cancelled_by_merchant` or a later value). */
  cancelledReason: openEnum(CANCELLATION_REASONS),
  /** Payment id. */
  paymentId: z.string(),
  /** Payment status (`cancelled`). */
  status: paymentStatusSchema,
});

/** The result of cancelling a payment. */
export type CancellationResult = z.output<typeof cancellationResultSchema>;
