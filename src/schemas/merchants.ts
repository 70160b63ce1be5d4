/**
 * Merchant schemas: the create input (and its wire body) and the merchant records returned by
 * `GET /v1/merchants`, `POST /v1/merchants` and `GET /v1/merchants/{merchantId}`.
 *
 * @module
 */
import * as z from "zod/mini";
import { isRecord } from "../validate/issues.js";
import { EMAIL_RE } from "../validate/rules.js";
import { openEnum } from "./common.js";
import { parseInput } from "./parse.js";
import { cryptoSettlementSchema, fiatSettlementSchema } from "./settlements.js";

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** A plausible e-mail address: something, `@`, a domain with a dot; no whitespace. */

/**
 * Input of `merchants.create`: `name` is required (trimmed, non-empty); `email`, when given, must
 * look like an e-mail address. Unknown fields are refused.
 */
export const createMerchantInputSchema = z.strictObject({
  /** Display name, shown to the buyer at checkout. Surrounding whitespace is removed. */
  // The checks look at the trimmed value; toCreateMerchantBody sends it trimmed.
  name: z.string().check(z.refine((name) => name.trim() !== "", { error: "must not be empty" })),
  /** Contact e-mail. Surrounding whitespace is removed. */
  email: z.optional(
    z.string().check(
      z.refine((email) => email.trim().length <= 254, { error: "must be at most 254 characters" }),
      z.refine((email) => EMAIL_RE.test(email.trim()), {
        error: 'must be an e-mail address, like "billing@shop.example"',
      }),
    ),
  ),
});

/** What `merchants.create` accepts: `{ name, email? }`. */
export type CreateMerchantInput = z.input<typeof createMerchantInputSchema>;

/** The wire body of `POST /v1/merchants`. */
export interface CreateMerchantBody {
  /** The merchant's display name. */
  merchantName: string;
  /** The contact e-mail, sent only when given. */
  merchantEmail?: string;
}

/**
 * Validates a `merchants.create` input and maps it to the wire body `{ merchantName, merchantEmail }`.
 *
 * @throws {InputValidationError} When the input is invalid (nothing should be sent).
 */
export function toCreateMerchantBody(input: CreateMerchantInput): CreateMerchantBody {
  const parsed = parseInput(createMerchantInputSchema, input);
  const body: CreateMerchantBody = { merchantName: parsed.name.trim() };
  if (parsed.email !== undefined) body.merchantEmail = parsed.email.trim();
  return body;
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/** The known merchant statuses. Others may appear and still parse. */
export const MERCHANT_STATUSES = ["active", "inactive", "suspended"] as const;

/** Merchant status: `active`, `inactive`, `suspended`, or a value added later by the service. */
export const merchantStatusSchema = openEnum(MERCHANT_STATUSES);

/** A merchant status (open: unknown values are kept as strings). */
export type MerchantStatus = z.output<typeof merchantStatusSchema>;

/** A merchant with its settlements, as returned by `GET /v1/merchants/{merchantId}`. Unknown fields are kept. */
export const merchantSchema = z.looseObject({
  /** Merchant id (`mrch_...`). */
  id: z.string(),
  /** Display name. */
  name: z.string(),
  /** Contact e-mail, or null. */
  email: z.nullable(z.string()),
  /** Merchant status. */
  status: merchantStatusSchema,
  /** Logo URL, or null when not set. */
  iconUrl: z.nullable(z.string()),
  /** ISO 8601 creation timestamp. */
  createdAt: z.string(),
  /** Configured settlement destinations. */
  settlements: z.looseObject({
    /** Crypto settlements: an asset paired with a destination account on the same chain. */
    crypto: z.array(cryptoSettlementSchema),
    /** Fiat settlements: bank account configurations. */
    fiat: z.array(fiatSettlementSchema),
  }),
});

/** A merchant with its settlements. */
export type Merchant = z.output<typeof merchantSchema>;

/** Body of `GET /v1/merchants/{merchantId}`: `{ merchant }`. */
export const retrieveMerchantResponseSchema = z.looseObject({ merchant: merchantSchema });

/** Body of `GET /v1/merchants/{merchantId}`. */
export type RetrieveMerchantResponse = z.output<typeof retrieveMerchantResponseSchema>;

/** The merchant returned by `POST /v1/merchants` (fewer fields than {@link merchantSchema}). */
export const createdMerchantSchema = z.looseObject({
  /** Merchant id (`mrch_...`). */
  id: z.string(),
  /** Display name. */
  name: z.string(),
  /** Contact e-mail, or null. */
  email: z.nullable(z.string()),
  /** Merchant status (`active` for a new merchant). */
  status: merchantStatusSchema,
  /** ISO 8601 creation timestamp. */
  createdAt: z.string(),
});

/** The merchant returned by `POST /v1/merchants`. */
export type CreatedMerchant = z.output<typeof createdMerchantSchema>;

/** Body of `POST /v1/merchants`: `{ merchant }`. */
export const createMerchantResponseSchema = z.looseObject({ merchant: createdMerchantSchema });

/** Body of `POST /v1/merchants`. */
export type CreateMerchantResponse = z.output<typeof createMerchantResponseSchema>;

/** True for a query parameter's value: sent as its string form; `undefined` is left out. */
function isQueryValue(value: unknown): boolean {
  return (
    value === undefined ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

/**
 * Query of `merchants.list`: the spec does not list its parameters, so any name passes through, but each value must
 * be a string, a finite number or a boolean (or undefined, which is left out).
 */
export const listMerchantsQuerySchema = z.optional(
  z
    .custom<Record<string, string | number | boolean | undefined>>(isRecord, {
      error: "must be an object of query parameters",
    })
    .check(
      z.superRefine((query, ctx) => {
        for (const [name, value] of Object.entries(query)) {
          if (isQueryValue(value)) continue;
          ctx.addIssue({ code: "custom", path: [name], message: "must be a string, number or boolean" });
        }
      }),
    ),
);

/** Query parameters of `merchants.list`, passed through as given. */
export type ListMerchantsQuery = z.input<typeof listMerchantsQuerySchema>;

/** One item of `GET /v1/merchants`; its shape is not documented, so every field is kept as is. */
export const merchantListItemSchema = z.looseObject({});

/** One item of the merchant list (shape not documented by the service). */
export type MerchantListItem = z.output<typeof merchantListItemSchema>;

/** Body of `GET /v1/merchants`: `{ data: [...] }` (possibly empty). */
export const listMerchantsResponseSchema = z.looseObject({
  /** The account's merchants; empty when there are none. */
  data: z.array(merchantListItemSchema),
});

/** Body of `GET /v1/merchants`. */
export type ListMerchantsResponse = z.output<typeof listMerchantsResponseSchema>;
