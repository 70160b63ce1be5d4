// The work the SDK promises on every call beyond sending it, written with the SDK's dependencies alone: the input
// checked before anything is sent, a POST's idempotency key (uuid v4, as the SDK makes it), the answer read with a
// schema (zod/mini's compiled readers, as the SDK's Node build reads its own). "ky floor + checks" is the ky floor
// plus exactly this: the floor of the promises. Its distance to the ky floor is what the promises cost whoever
// keeps them; the SDK's distance to it is the SDK's own machinery (the transport, events, redaction, result
// metadata). The schemas are smaller than the SDK's (no messages, no drift, one link field): a floor, not a copy.
import { v4 } from "uuid";
import * as z from "zod/mini";

const TERMINAL = new Set(["succeeded", "failed", "expired", "cancelled"]);

/** A payment status answer: its fields, and `isFinal` agreeing with the status. */
export const statusSchema = z.compile(
  z
    .looseObject({
      status: z.string(),
      isFinal: z.boolean(),
      pollInMs: z.optional(z.nullable(z.int())),
      info: z.optional(z.nullable(z.looseObject({ txId: z.optional(z.string()) }))),
    })
    .check(z.refine((answer) => answer.isFinal === TERMINAL.has(answer.status))),
);

/** A `payments.create()` input: the order id and an ISO 4217 amount in minor units. */
const createInputSchema = z.compile(
  z.strictObject({
    referenceId: z.string().check(z.minLength(1)),
    amount: z.strictObject({
      unit: z.string().check(z.regex(/^iso4217\/[A-Z]{3}$/)),
      value: z.string().check(z.regex(/^(0|[1-9]\d*)$/)),
    }),
  }),
);

/** A creation answer: the payment id, and a wallet link that is an https URL. */
const createdSchema = z.compile(
  z.looseObject({
    id: z.string(),
    paymentLink: z.string().check(z.refine((link) => URL.parse(link)?.protocol === "https:")),
  }),
);

/** The checked body and the idempotency key of a create request, made before it is sent. */
export function checkedCreate(input) {
  return { body: JSON.stringify(z.parse(createInputSchema, input)), idempotencyKey: v4() };
}

/** Reads a status answer with its schema. */
export const readStatus = (answer) => z.parse(statusSchema, answer);

/** Reads a creation answer with its schema. */
export const readCreated = (answer) => z.parse(createdSchema, answer);
