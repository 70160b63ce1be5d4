/**
 * Merchant schemas: the create input (and its request body) and the merchant records returned by
 * `GET /v1/merchants`, `POST /v1/merchants` and `GET /v1/merchants/{merchantId}`.
 *
 * @module
 */
import * as z from "zod/mini";
import { MERCHANT_STATUSES } from "../model/merchants.js";
import { EMAIL_RE } from "../validate/rules.js";
import { flatQuerySchema, type JsonObject, type OpenEnum, openEnum, responseObject } from "./common.js";
import { parseInput } from "./input.js";
import { decisive } from "./parse.js";
import { objectItem, objectItemWithId, responseArray } from "./response-array.js";
import { keepOpen } from "./strictness.js";
import { cryptoSettlementSchema, fiatSettlementSchema } from "./settlements.js";

export { MERCHANT_STATUSES } from "../model/merchants.js";

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

const createMerchantInputObject = z.strictObject({
  /** Display name, shown to the buyer at checkout. Surrounding whitespace is removed. */
  // The checks look at the trimmed value; toCreateMerchantBody sends it trimmed.
  name: z.string().check(z.refine((name) => name.trim() !== "", { error: "must not be empty" })),
  /**
   * Contact e-mail, required: the document lists `merchantEmail` without saying whether it is optional, so the SDK
   * takes the reading a strict service would not refuse. Surrounding whitespace is removed.
   */
  email: z
    .string({
      error: (issue) =>
        issue.input === undefined ? 'is required: a contact e-mail, like "billing@shop.example"' : undefined,
    })
    .check(
      z.refine((email) => email.trim().length <= 254, { error: "must be at most 254 characters" }),
      z.refine((email) => EMAIL_RE.test(email.trim()), {
        error: 'must be an e-mail address, like "billing@shop.example"',
      }),
    ),
});

/** What `merchants.create` accepts: `{ name, email }`. */
export interface CreateMerchantInput extends z.input<typeof createMerchantInputObject> {}

/**
 * Input of `merchants.create`: `name` (trimmed, non-empty) and `email` (an e-mail address), both required. Unknown
 * fields are refused.
 */
export const createMerchantInputSchema: z.ZodMiniType<CreateMerchantInput, CreateMerchantInput> =
  createMerchantInputObject;

/** The request body of `POST /v1/merchants`. */
export interface CreateMerchantBody {
  /** The merchant's display name. */
  merchantName: string;
  /** The contact e-mail. */
  merchantEmail: string;
}

/**
 * Validates a `merchants.create` input and maps it to the request body `{ merchantName, merchantEmail }`.
 *
 * @throws {InputValidationError} When the input is invalid (nothing should be sent).
 */
export function toCreateMerchantBody(input: CreateMerchantInput): CreateMerchantBody {
  const parsed = parseInput(createMerchantInputSchema, input);
  return { merchantName: parsed.name.trim(), merchantEmail: parsed.email.trim() };
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/** Merchant status: `active`, `inactive`, `suspended`, or a value added later by the service. */
export const merchantStatusSchema: z.ZodMiniType<MerchantStatus, unknown> = openEnum(MERCHANT_STATUSES);

/** A merchant status (open: unknown values are kept as strings). */
export type MerchantStatus = OpenEnum<(typeof MERCHANT_STATUSES)[number]>;

const merchantSettlementsObject = responseObject({
  /** Crypto settlements: an asset paired with a destination account on the same chain. */
  crypto: responseArray(cryptoSettlementSchema, objectItem),
  /** Fiat settlements: bank account configurations. */
  fiat: responseArray(fiatSettlementSchema, objectItem),
});

/** A merchant's configured settlement destinations, as carried in {@link Merchant.settlements}. */
export interface MerchantSettlements extends z.output<typeof merchantSettlementsObject> {}

const merchantSettlementsSchema: z.ZodMiniType<MerchantSettlements> = merchantSettlementsObject;

const createdMerchantObject = responseObject({
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

/** The merchant returned by `POST /v1/merchants`: `{ id, name, email, status, createdAt }`. */
export interface CreatedMerchant extends z.output<typeof createdMerchantObject> {}

/** The merchant returned by `POST /v1/merchants` (fewer fields than {@link merchantSchema}). */
export const createdMerchantSchema: z.ZodMiniType<CreatedMerchant> = createdMerchantObject;

const merchantObject = responseObject({
  ...createdMerchantObject.shape,
  /** Logo URL, or null when not set. */
  iconUrl: z.nullable(z.string()),
  /** Configured settlement destinations. */
  settlements: merchantSettlementsSchema,
});

/** A merchant with its settlements (`merchants.retrieve`). */
export interface Merchant extends z.output<typeof merchantObject> {}

/** A merchant with its settlements, as returned by `GET /v1/merchants/{merchantId}`. Unknown fields are kept. */
export const merchantSchema: z.ZodMiniType<Merchant> = merchantObject;

const retrieveMerchantResponseObject = responseObject({ merchant: merchantSchema });

/** Body of `GET /v1/merchants/{merchantId}`: `{ merchant }`. */
export interface RetrieveMerchantResponse extends z.output<typeof retrieveMerchantResponseObject> {}

/** Body of `GET /v1/merchants/{merchantId}`: `{ merchant }`. */
export const retrieveMerchantResponseSchema: z.ZodMiniType<RetrieveMerchantResponse> =
  retrieveMerchantResponseObject;

const createMerchantResponseObject = responseObject({ merchant: createdMerchantSchema });

/** Body of `POST /v1/merchants`: `{ merchant }`. */
export interface CreateMerchantResponse extends z.output<typeof createMerchantResponseObject> {}

/** Body of `POST /v1/merchants`: `{ merchant }`. */
export const createMerchantResponseSchema: z.ZodMiniType<CreateMerchantResponse> =
  createMerchantResponseObject;

/**
 * Query of `merchants.list`: the spec does not list its parameters, so any name passes through, but each value must
 * be a string, a finite number or a boolean (or undefined, which is left out).
 */
export const listMerchantsQuerySchema = flatQuerySchema;

/** Query parameters of `merchants.list`, passed through as given. */
export type ListMerchantsQuery = z.input<typeof listMerchantsQuerySchema>;

const merchantListItemObject = keepOpen(
  responseObject({
    /** Merchant id (`mrch_...`): pass it to `merchants.retrieve` for the merchant with its settlements. */
    id: z.string(),
  }),
);

/**
 * One item of the merchant list. The document does not show its shape: its `id` is typed (a list of merchants that
 * does not name them is of no use), every other field is JSON as sent (the items of the bundled mock are merchants:
 * narrow with your own checks before use).
 */
export interface MerchantListItem extends JsonObject, z.output<typeof merchantListItemObject> {}

/** One item of `GET /v1/merchants`: an object with a string `id`, every other field kept as sent. */
export const merchantListItemSchema: z.ZodMiniType<MerchantListItem> =
  merchantListItemObject as unknown as z.ZodMiniType<MerchantListItem>;

const listMerchantsResponseObject = responseObject({
  /** The account's merchants; empty when there are none. */
  data: responseArray(merchantListItemSchema, objectItemWithId),
});

/** Body of `GET /v1/merchants`: `{ data }`, the items in the shape the service sends. */
export interface ListMerchantsResponse extends z.output<typeof listMerchantsResponseObject> {}

/** Body of `GET /v1/merchants`: `{ data: [...] }` (possibly empty). */
export const listMerchantsResponseSchema: z.ZodMiniType<ListMerchantsResponse> = decisive(
  listMerchantsResponseObject,
  // The one field typed on an item: code passes it on (`merchants.retrieve(item.id)`), so it must be a string.
  ["data.*.id"],
);
