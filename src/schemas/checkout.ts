/**
 * Checkout schemas: the redirect-based payment create input (and its request body) and the create
 * response. The checkout status operation returns a {@link PaymentStatusResult}.
 *
 * @module
 */
import * as z from "zod/mini";
import { BUYER_PAGE_URL_PROBLEM, isBuyerPageUrl, type ReturnUrlRule } from "../validate/rules.js";
import {
  httpsUrlSchema,
  type Iso4217AmountInput,
  insecureReturnUrlSchema,
  iso4217AmountInputSchema,
  localReturnUrlSchema,
  nonEmptyStringSchema,
  responseObject,
} from "./common.js";
import { parseInput } from "./input.js";
import { decisive } from "./parse.js";
import { paymentStatusResultSchema } from "./payments.js";

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** Checkout with redirects: both return URLs are required and must be absolute `https:` URLs. */
const withRedirects = (returnUrl: typeof httpsUrlSchema) =>
  z.strictObject({
    /** Redirects are on; may be omitted. First, so that a wrong value is reported before the URLs it governs. */
    redirects: z.optional(
      z.custom<true>((redirects) => redirects === true, { error: "must be true, false or left out" }),
    ),
    /** The merchant's own order identifier (non-empty; sent as given). */
    referenceId: nonEmptyStringSchema,
    /** The requested amount, `{ unit: "iso4217/USD", value: "1050" }`. */
    amount: iso4217AmountInputSchema,
    /** Where the portal sends the buyer on success (`?payment_id=...` is appended). */
    successUrl: returnUrl,
    /** Where the portal sends the buyer on failure (`?payment_id=...` is appended). */
    errorUrl: returnUrl,
  });

/** A field that must be absent (`undefined` counts as absent). */
const leftOut = z.custom<undefined>((value) => value === undefined, {
  error: "must be left out when redirects is false",
});

/** Checkout without redirects: the portal shows its generic success and error views. */
const withoutRedirectsSchema = z.strictObject({
  /** The merchant's own order identifier (non-empty; sent as given). */
  referenceId: nonEmptyStringSchema,
  /** The requested amount, `{ unit: "iso4217/USD", value: "1050" }`. */
  amount: iso4217AmountInputSchema,
  /** Explicit opt-out of redirects: no `checkout` object is sent. */
  redirects: z.custom<false>((redirects) => redirects === false),
  /** Must be left out when `redirects` is false. */
  successUrl: z.optional(leftOut),
  /** Must be left out when `redirects` is false. */
  errorUrl: z.optional(leftOut),
});

/** Checkout with redirects: both return URLs absolute `https:` URLs. */
const withRedirectsSchema = withRedirects(httpsUrlSchema);
/** The same against a local mock service: http loopback return URLs are allowed. */
const localWithRedirectsSchema = withRedirects(localReturnUrlSchema);
/** The same for a test-mode client under `allowInsecureHttp`: http return URLs to any host. */
const insecureWithRedirectsSchema = withRedirects(insecureReturnUrlSchema);

const RETURN_URL_SCHEMAS = {
  https: withRedirectsSchema,
  "loopback-http": localWithRedirectsSchema,
  "any-http": insecureWithRedirectsSchema,
} as const;

/**
 * A checkout with redirects: the portal sends the buyer back to `successUrl` or `errorUrl` with
 * `?payment_id=...` appended.
 */
export interface CheckoutWithRedirectsInput extends z.input<typeof withRedirectsSchema> {
  /** The requested amount, `{ unit: "iso4217/USD", value: "1050" }` (or `money("10.50", "USD")`). */
  amount: Iso4217AmountInput;
}

/** A checkout without redirects: the portal shows its generic success and error views. */
export interface CheckoutWithoutRedirectsInput extends z.input<typeof withoutRedirectsSchema> {
  /** The requested amount, `{ unit: "iso4217/USD", value: "1050" }` (or `money("10.50", "USD")`). */
  amount: Iso4217AmountInput;
}

/**
 * What `checkout.create` accepts: `{ referenceId, amount, successUrl, errorUrl }` with both URLs absolute `https:`
 * URLs (the service would silently disable redirects otherwise, so they are refused here); or, to opt out of
 * redirects on purpose, `{ referenceId, amount, redirects: false }` without URLs.
 */
export type CreateCheckoutInput = CheckoutWithRedirectsInput | CheckoutWithoutRedirectsInput;

/** The request body of `POST /v1/merchant/payment`. */
export interface CreateCheckoutBody {
  /** The merchant's own order identifier. */
  referenceId: string;
  /** The requested amount. */
  amount: { unit: string; value: string };
  /** The return URLs; absent when redirects were turned off. */
  checkout?: { successUrl: string; errorUrl: string };
}

/**
 * Validates a `checkout.create` input and maps it to the request body
 * `{ referenceId, amount, checkout: { successUrl, errorUrl } }` (no `checkout` with `redirects: false`).
 *
 * @throws {InputValidationError} When the input is invalid (nothing should be sent).
 */
export function toCreateCheckoutBody(
  input: CreateCheckoutInput,
  { returnUrls = "https" }: { returnUrls?: ReturnUrlRule } = {},
): CreateCheckoutBody {
  // `redirects` picks the shape (a discriminated union, without the weight of zod's union classes).
  if ((input as { redirects?: unknown } | null | undefined)?.redirects === false) {
    const { referenceId, amount } = parseInput(withoutRedirectsSchema, input);
    return { referenceId, amount };
  }
  const { referenceId, amount, successUrl, errorUrl } = parseInput(RETURN_URL_SCHEMAS[returnUrls], input);
  return { referenceId, amount, checkout: { successUrl, errorUrl } };
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

const createCheckoutResponseObject = responseObject({
  /** Payment id; store it with the order. */
  paymentId: z.string(),
  /**
   * The checkout portal address to redirect the buyer to: `https:`, or plain `http:` to a loopback host (the local
   * mock's portal), by the same rule as a payment's wallet link.
   */
  gatewayUrl: z.string().check(z.refine(isBuyerPageUrl, { error: BUYER_PAGE_URL_PROBLEM })),
});

/** The created checkout payment: `{ paymentId, gatewayUrl }`. */
export interface CreateCheckoutResponse extends z.output<typeof createCheckoutResponseObject> {}

/**
 * Body of `POST /v1/merchant/payment`: `{ paymentId, gatewayUrl }`. Unknown fields are kept. `gatewayUrl` is read
 * strictly in every mode: the merchant redirects the buyer to it, so a `javascript:` or `data:` one, or plain http
 * to a public host, fails with a `ResponseValidationError` instead of reaching the buyer.
 */
export const createCheckoutResponseSchema: z.ZodMiniType<CreateCheckoutResponse> = decisive(
  createCheckoutResponseObject,
  ["gatewayUrl"],
);

/** Body of `GET /v1/merchant/payment/{paymentId}/status`: the same shape as the payment status result. */
export const checkoutStatusResultSchema = paymentStatusResultSchema;
