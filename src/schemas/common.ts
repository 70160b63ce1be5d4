/**
 * Building blocks shared by the request and response schemas: open enums, identifiers, CAIP
 * (chain, account, asset) identifiers and amounts.
 *
 * Input schemas here are strict and carry human messages phrased without a subject
 * (`must be ...`); `parseInput` (`input.ts`) puts the field name in front.
 *
 * @module
 */
import * as z from "zod/mini";
import type { JsonValue } from "../model/json.js";
import { currencyProblem } from "../validate/currencies.js";
import { isRecord } from "../validate/issues.js";
import { rememberKnownValues } from "./strictness.js";
import {
  CAIP10_RE,
  CAIP19_RE,
  type Caip2Parts,
  type Caip10Parts,
  type Caip19Parts,
  caip10Problem,
  caip19Problem,
  ISO4217_UNIT_RE,
  isHttpsUrl,
  isPlainHttpUrl,
  MINOR_UNITS_RE,
  parseCaip2,
  parseCaip10,
  parseCaip19,
  paymentAmountProblem,
} from "../validate/rules.js";

export { unknownField } from "../model/fields.js";
export type { JsonObject, JsonValue } from "../model/json.js";
export { assertId } from "../validate/ids.js";
export { describeType } from "../validate/issues.js";
export type { Caip2Parts, Caip10Parts, Caip19Parts };
export { CAIP10_RE, CAIP19_RE, ISO4217_UNIT_RE, MINOR_UNITS_RE, parseCaip2, parseCaip10, parseCaip19 };

/** Any JSON value, kept as sent (the body came from `JSON.parse`, so it is one). */
export const jsonValueSchema: z.ZodMiniType<JsonValue> = z.custom<JsonValue>();

/**
 * A response object: its documented fields are checked, and the fields the service adds are kept at run time, as
 * sent (so logging or relaying a result shows them), but left out of its type, so a misspelt field
 * (`status.isfinal`) does not compile. Read an added field with {@link unknownField}.
 */
export function responseObject<const Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
): ReturnType<typeof z.object<Shape>> {
  // The loose object keeps every field at run time; its type is the strict object's, without an index signature.
  return z.looseObject(shape) as unknown as ReturnType<typeof z.object<Shape>>;
}

/**
 * An enum that is open for the future: the known values are offered by autocomplete, and any other
 * string is still accepted (the service may add values without notice).
 */
export type OpenEnum<Known extends string> = Known | (string & {});

/**
 * A response-side schema for an open enum: any string parses, typed as `Known | (string & {})`.
 *
 * @param known The known values. They never restrict parsing (the doctor reports others as drift).
 */
export function openEnum<const Known extends string>(
  known: readonly Known[],
): z.ZodMiniType<OpenEnum<Known>, unknown> {
  // Any string parses: the known values shape the type (autocomplete) and a strict check (the doctor's), never
  // what the SDK accepts.
  return rememberKnownValues(z.string(), known) as z.ZodMiniType<OpenEnum<Known>, unknown>;
}

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
 * A query whose parameters the document does not list (`merchants.list`'s, a custom operation's): any name passes
 * through, each value a string, a finite number or a boolean (or undefined, which is left out).
 */
export const flatQuerySchema = z.optional(
  z
    .custom<Record<string, string | number | boolean | undefined>>(isRecord, {
      error: "must be an object of query parameters",
    })
    .check(
      z.check((payload) => {
        for (const [name, value] of Object.entries(payload.value)) {
          if (isQueryValue(value)) continue;
          reportProblem(payload, [name], "must be a string, number or boolean");
        }
      }),
    ),
);

// ---------------------------------------------------------------------------------------------
// Plain strings
// ---------------------------------------------------------------------------------------------

/**
 * A check that the string matches `re`. A refinement rather than `z.regex`: the messages are ours either way,
 * and every zod check class left out of the bundle is weight no user carries.
 */
export function matching(re: RegExp, error: string): z.core.$ZodCheck<string> {
  return z.refine<string>((value) => re.test(value), { error });
}

/**
 * Reports one problem a check (`z.check`) found, at `path` below the value it checks. The SDK's checks are plain
 * checks, not `superRefine`s: a `superRefine` puts a new `addIssue` closure on each parse's payload, and with it V8
 * allocated zod's payloads in the old generation, as long-lived objects, in a server making 64 creates at a time
 * (`bench/RESULTS.md`, eleventh pass).
 */
export function reportProblem<T>(
  payload: z.core.ParsePayload<T>,
  path: PropertyKey[],
  message: string,
): void {
  payload.issues.push({ code: "custom", path, message, input: payload.value, continue: true });
}

/** A check by one of the shared rules of `validate/rules.ts` (the mock applies the same function). */
function byRule(problem: (value: string) => string | undefined) {
  return z.check<string>((payload) => {
    const message = problem(payload.value);
    if (message !== undefined) reportProblem(payload, [], message);
  });
}

/** A string holding at least one non-whitespace character (kept as given, not trimmed). */
export const nonEmptyStringSchema = z.string().check(
  z.refine((value) => value.trim().length > 0, {
    error: "must be a non-empty string",
  }),
);

/** An absolute `https:` URL (the service silently disables redirects to anything else). */
export const httpsUrlSchema = z
  .string()
  .check(
    z.refine(isHttpsUrl, { error: 'must be an absolute https URL, like "https://shop.example/thanks"' }),
  );

/**
 * A return URL for a checkout against a local mock service: https, or plain http to a loopback host (the mock
 * redirects there; the real service is never on loopback, so a client talking to it never uses this schema).
 */
export const localReturnUrlSchema = z.string().check(
  z.refine((value) => isHttpsUrl(value) || isHttpsUrl(value, true), {
    error: 'must be an absolute https URL (or http to a loopback host), like "https://shop.example/thanks"',
  }),
);

/**
 * A return URL for a test-mode checkout under `allowInsecureHttp` (a mock in Docker Compose or a CI service): https,
 * or plain http to any host, so the redirect round-trip needs no TLS. Never used with a live key.
 */
export const insecureReturnUrlSchema = z.string().check(
  z.refine((value) => isHttpsUrl(value) || isPlainHttpUrl(value), {
    error: 'must be an absolute https or http URL, like "http://app:3000/thanks"',
  }),
);

// ---------------------------------------------------------------------------------------------
// CAIP identifiers
// ---------------------------------------------------------------------------------------------

/** Input schema of a CAIP-10 account id, for example `eip155:8453:0x1234...`. */
export const caip10Schema = z.string().check(byRule(caip10Problem));

/** Input schema of a CAIP-19 asset id, for example `eip155:8453/erc20:0x8335...`. */
export const caip19Schema = z.string().check(byRule(caip19Problem));

// ---------------------------------------------------------------------------------------------
// Amounts
// ---------------------------------------------------------------------------------------------

/** The currency rule on an `iso4217/<CODE>` unit (the form itself is checked apart, with its own message). */
function unitCurrencyProblem(unit: string): string | undefined {
  if (!ISO4217_UNIT_RE.test(unit)) return undefined;
  const problem = currencyProblem(unit.slice("iso4217/".length));
  return problem === undefined ? undefined : `currency ${problem}`;
}

const iso4217AmountInputObject = z.strictObject({
  /**
   * The currency: `iso4217/` and an active ISO 4217 currency code, upper-case, like `iso4217/USD` (not BTC or XAU:
   * see `currencyProblem`).
   */
  unit: z
    .string()
    .check(
      matching(ISO4217_UNIT_RE, 'must be "iso4217/" and an upper-case currency code, like "iso4217/USD"'),
      byRule(unitCurrencyProblem),
    ),
  /** The amount in minor units as a decimal string, e.g. `"1050"` for 10.50 USD; more than zero. */
  value: z.string().check(byRule(paymentAmountProblem)),
});

/** An amount as written in a request: `{ unit, value }`, `value` in minor units as a decimal string. */
export interface AmountInput {
  /** `iso4217/<CODE>` (like `iso4217/USD`) or `caip19/<CAIP-19 asset id>`. */
  unit: string;
  /** The amount in minor units as a decimal string, e.g. `"1050"` for 10.50 USD. */
  value: string;
}
/** A fiat amount as accepted by payment creation: `{ unit: "iso4217/USD", value: "1050" }`. */
export interface Iso4217AmountInput extends z.input<typeof iso4217AmountInputObject> {}

/** Input schema of an amount in a fiat currency (`iso4217/<CODE>`), as payment creation requires. */
export const iso4217AmountInputSchema: z.ZodMiniType<Iso4217AmountInput, Iso4217AmountInput> =
  iso4217AmountInputObject;

const amountObject = responseObject({
  /** `iso4217/<CODE>` for a requested amount, `caip19/<CAIP-19 asset id>` for an amount in the paid asset. */
  unit: z.string(),
  /** Integer in minor units as a decimal string (in the paid asset: the token's smallest unit). */
  value: z.string(),
});
/** Response schema of an amount. Extra fields are kept; the unit form is not restricted. */
export const amountSchema: z.ZodMiniType<Amount, unknown> = amountObject;

/** An amount as returned by the service. */
export interface Amount extends z.output<typeof amountObject> {}
