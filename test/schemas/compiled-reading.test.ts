/**
 * From its second use on, an SDK schema (a response's, a method's input) is run by the code zod generates for it
 * (`compiled-reader.ts`, the Node build; issue #27). A reading must not depend on that: the same value gives the same
 * data, issues and drift on its first reading (interpreted) and on every later one (compiled); where the application
 * set zod's `jitless` (a Content Security Policy), no code is generated at all; and a caller's own schema
 * (`client.request`) always runs as its author wrote it.
 */
import fc from "fast-check";
import * as z from "zod/mini";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MerchantPaymentsClient, ResponseValidationError } from "../../src/index.js";
import { PARSE_CONTEXT } from "../../src/schemas/issues.js";
import {
  createMerchantInputSchema,
  listMerchantsResponseSchema,
  retrieveMerchantResponseSchema,
} from "../../src/schemas/merchants.js";
import { readResponse } from "../../src/schemas/parse.js";
import { MAX_DRIFT_ITEMS } from "../../src/schemas/response-array.js";
import {
  cancellationResultSchema,
  createPaymentInputSchema,
  createPaymentResponseSchema,
  paymentStatusResultSchema,
} from "../../src/schemas/payments.js";
import {
  createCryptoSettlementsInputSchema,
  settlementsListSchema,
  updateCryptoSettlementInputSchema,
} from "../../src/schemas/settlements.js";
import { failure } from "../helpers/assertions.js";
import { CANCELLED, DEST_BASE, MERCHANT, pending, SUCCEEDED, USDC_BASE } from "../helpers/fixtures.js";
import { SECRET_KEY } from "../helpers/secrets.js";

type Schema = z.core.$ZodType;

const CRYPTO = { id: "crypto_1", asset: USDC_BASE, destination: DEST_BASE };
const CREATED_PAYMENT = {
  id: "pay_1",
  paymentLink: "https://pay.example/portal/pay_1",
  status: "requires_action",
  amount: { unit: "iso4217/USD", value: "1999" },
};

/**
 * Each response schema with answers it accepts, to mutate: the hot ones (status, create) and each shape of reading;
 * then input schemas (`parseInput` runs them the same way) with inputs they accept.
 */
const SCHEMAS: [string, Schema, unknown[]][] = [
  [
    "payment status",
    paymentStatusResultSchema,
    [SUCCEEDED, pending("processing", 500), pending("x_new", null)],
  ],
  ["created payment", createPaymentResponseSchema, [CREATED_PAYMENT]],
  ["cancellation", cancellationResultSchema, [CANCELLED]],
  ["merchant", retrieveMerchantResponseSchema, [{ merchant: MERCHANT }]],
  ["merchant list", listMerchantsResponseSchema, [{ data: [MERCHANT, { ...MERCHANT, id: "mrch_2" }] }]],
  ["settlements", settlementsListSchema, [{ fiat: [], crypto: [CRYPTO, { ...CRYPTO, id: "crypto_2" }] }]],
  ["payment input", createPaymentInputSchema, [{ referenceId: "order-1", amount: CREATED_PAYMENT.amount }]],
  ["merchant input", createMerchantInputSchema, [{ name: " Shop ", email: "billing@shop.example" }]],
  ["settlements input", createCryptoSettlementsInputSchema, [[{ asset: USDC_BASE, destination: DEST_BASE }]]],
  ["settlement update input", updateCryptoSettlementInputSchema, [{ destination: DEST_BASE }]],
];

/** An answer changed at one place: a field set to any JSON value, removed, or added. */
function mutated(answer: unknown): fc.Arbitrary<unknown> {
  const paths = fieldPaths(answer);
  return fc
    .tuple(fc.constantFrom(...paths), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)))
    .map(([path, value]) => {
      const copy = structuredClone(answer) as Record<string, unknown>;
      let parent = copy;
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
      const last = path.at(-1) ?? "x_added";
      if (value === undefined) delete parent[last];
      else parent[last] = value;
      return copy;
    });
}

/** Every path to a field of `value` (array items included), and one new field at the top. */
function fieldPaths(value: unknown, path: string[] = []): string[][] {
  if (typeof value !== "object" || value === null) return [path];
  const inner = Object.entries(value).flatMap(([key, child]) => fieldPaths(child, [...path, key]));
  return path.length === 0 ? [["x_added"], ...inner] : [path, ...inner];
}

/** What a zod reading gives: success, data (key order included) and issues. */
function outcome(schema: Schema, body: unknown) {
  const parsed = z.safeParse(schema, body, PARSE_CONTEXT);
  return parsed.success
    ? { success: true, data: JSON.stringify(parsed.data) }
    : { success: false, issues: parsed.error.issues };
}

describe("a compiled reading reads as the interpreted one", () => {
  it.each(SCHEMAS)("%s: zod compiles it, and both read every value alike", (_name, schema, answers) => {
    // Strict: zod throws where it would hand the schema back uncompiled (the comparison would then prove nothing).
    const compiled = z.compile(schema, { strict: true });
    // The starting values are valid: the compiled code's own path (not only its hand-over) is compared.
    for (const answer of answers) expect(outcome(schema, answer).success).toBe(true);
    const bodies = fc.oneof(
      fc.constantFrom(...answers),
      ...answers.map(mutated),
      fc.jsonValue({ maxDepth: 3 }),
    );
    fc.assert(
      fc.property(bodies, (body) => {
        expect(outcome(compiled, body)).toEqual(outcome(schema, body));
      }),
      { numRuns: 300 },
    );
  });

  it.each(["tolerant", "strict"] as const)(
    "%s: an answer with more deviating items than drift detection examines reads the same every time",
    (mode) => {
      const crypto = Array.from({ length: 3 * MAX_DRIFT_ITEMS }, (_, i) => ({ ...CRYPTO, id: i }));
      const readings = Array.from({ length: 3 }, () =>
        readResponse(settlementsListSchema, { fiat: [], crypto }, mode, "compiled"),
      );
      expect(readings[0]!.success).toBe(mode === "tolerant");
      // The first reading is interpreted, the later ones compiled: the compiled pass must not spend the budget.
      expect(readings[1]).toEqual(readings[0]);
      expect(readings[2]).toEqual(readings[0]);
    },
  );
});

describe("zod's jitless setting", () => {
  afterEach(() => {
    z.config({ jitless: false });
    vi.restoreAllMocks();
  });

  it("no code is generated for a reading when the application set jitless", () => {
    z.config({ jitless: true });
    const generate = vi.spyOn(globalThis, "Function");
    // A schema of its own: no earlier test has read (or compiled) it.
    const schema = z.looseObject({ id: z.string() });
    for (let i = 0; i < 3; i++) {
      expect(readResponse(schema, { id: "pay_1" }, "strict", "compiled").success).toBe(true);
    }
    expect(generate).not.toHaveBeenCalled();
  });
});

describe("a caller's schema (client.request)", () => {
  it("runs as its author wrote it: a refinement runs once per reading of an answer it rejects", async () => {
    let runs = 0;
    const positive = z.number().check(z.refine((n: number) => (runs++, n > 0), "must be positive"));
    const client = new MerchantPaymentsClient({
      apiKey: SECRET_KEY,
      baseUrl: "https://api.merchant-payments.test",
      maxRetries: 0,
      fetch: async () => Response.json({ id: "x_1", amount: -1 }),
    });
    const response = z.looseObject({ id: z.string(), amount: positive });
    for (let call = 1; call <= 3; call++) {
      const error = await failure(() => client.request({ method: "GET", path: "/v1/things/x_1", response }));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(runs).toBe(call);
    }
  });
});
