/**
 * Response bodies (property-based): valid bodies always parse, whatever extra fields, unknown enum
 * values and unknown action types they carry (and extra fields are kept); random, mutated, truncated, non-JSON
 * and deeply nested bodies never end in anything but a resolved value or a ResponseValidationError; error
 * answers always end in an APIError of the right family. An unknown status is never taken as final.
 *
 * The same bodies read tolerantly: a resolved value (with drift events that quote no string) or a
 * ResponseValidationError, never another error; a status answer is returned as it arrived (never "fixed"), so a
 * contradictory one is never fulfillable.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type DriftEvent,
  InternalServerError,
  isFulfillable,
  MAX_JSON_DEPTH,
  MerchantPaymentsClient,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseTooLargeError,
  ResponseValidationError,
  TERMINAL_PAYMENT_STATUSES,
} from "../../src/index.js";
import { settle } from "../helpers/outcomes.js";
import { SECRET_KEY } from "../helpers/secrets.js";

const RUNS = { numRuns: 100 };

/** The next answer of the fake service. */
let answer: { status: number; body: string; headers?: Record<string, string> } = { status: 200, body: "{}" };
const drift: DriftEvent[] = [];
const clientOptions = {
  apiKey: SECRET_KEY,
  baseUrl: "https://api.merchant-payments.test",
  merchantId: "mrch_resp",
  maxRetries: 0,
  hooks: { onDrift: (event: DriftEvent) => drift.push(event) },
  fetch: async () =>
    new Response(answer.body === "" ? null : answer.body, {
      status: answer.status,
      headers: { "content-type": "application/json", ...answer.headers },
    }),
};
const strictSdk = new MerchantPaymentsClient({ ...clientOptions, responseValidation: "strict" });
const tolerantSdk = new MerchantPaymentsClient({ ...clientOptions, responseValidation: "tolerant" });
/** The client the next call goes through (each property picks its reading mode). */
let sdk = strictSdk;

async function respondWith(status: number, body: string, call: () => Promise<unknown>) {
  answer = { status, body };
  return settle(call);
}

// ---------------------------------------------------------------------------------------------
// Arbitraries of valid bodies
// ---------------------------------------------------------------------------------------------

const str = fc.string({ maxLength: 20 });
const extraKey = fc.stringMatching(/^x_[a-zA-Z0-9]{1,8}$/);
const extras = fc.dictionary(extraKey, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
const unknownWord = fc.stringMatching(/^[a-z_]{1,16}$/);
const open = <T extends string>(known: readonly T[]) =>
  fc.oneof(
    fc.constantFrom(...known),
    unknownWord.filter((w) => !known.includes(w as T)),
  );
const withExtras = <T extends object>(arb: fc.Arbitrary<T>) =>
  fc.tuple(arb, extras).map(([value, more]) => ({ ...more, ...value }));

const amount = fc.record({ unit: str, value: str });
const crypto = withExtras(fc.record({ id: str, asset: str, destination: str }));
const fiat = withExtras(fc.record({ id: str, status: str, bankType: str }));
const createdMerchant = withExtras(
  fc.record({
    id: str,
    name: str,
    email: fc.option(str, { nil: null }),
    status: open(["active", "inactive", "suspended"]),
    createdAt: str,
  }),
);
const merchant = fc
  .tuple(
    createdMerchant,
    fc.option(str, { nil: null }),
    fc.array(crypto, { maxLength: 3 }),
    fc.array(fiat, { maxLength: 3 }),
  )
  .map(([m, iconUrl, c, f]) => ({ ...m, iconUrl, settlements: { crypto: c, fiat: f } }));

const UNKNOWN_STATUS = unknownWord.filter(
  (w) => !(TERMINAL_PAYMENT_STATUSES as readonly string[]).includes(w),
);
const info = fc.option(withExtras(fc.record({ txId: str }, { requiredKeys: [] })), { nil: undefined });
const statusResult = fc.oneof(
  // not final: a documented pending status or one the SDK does not know
  fc.record(
    {
      status: fc.oneof(fc.constantFrom("requires_action", "processing"), UNKNOWN_STATUS),
      isFinal: fc.constant(false),
      pollInMs: fc.oneof(fc.nat(), fc.constant(null)),
      info,
    },
    { requiredKeys: ["status", "isFinal"] },
  ),
  // final without success
  fc.record(
    {
      status: fc.constantFrom("failed", "expired", "cancelled"),
      isFinal: fc.constant(true),
      pollInMs: fc.constant(null),
      info,
    },
    { requiredKeys: ["status", "isFinal"] },
  ),
  // succeeded, with its proof
  fc.record({
    status: fc.constant("succeeded"),
    isFinal: fc.constant(true),
    pollInMs: fc.constant(null),
    info: withExtras(
      fc.record({ txId: str, optionAmount: amount.map((a) => ({ ...a, unit: `caip19/${a.unit}` })) }),
    ),
  }),
);
const walletRpc = withExtras(
  fc.record({
    type: fc.constant("walletRpc"),
    data: withExtras(
      fc.record({
        chain_id: str,
        method: fc.constantFrom("eth_signTypedData_v4", "eth_sendTransaction"),
        params: fc.array(
          fc.oneof(
            str,
            fc.jsonValue().map((v) => JSON.stringify(v)),
          ),
          { maxLength: 3 },
        ),
      }),
    ),
  }),
);
const unknownAction = withExtras(
  fc.record({ type: unknownWord.filter((w) => w !== "walletRpc"), data: fc.jsonValue({ maxDepth: 3 }) }),
);

interface Op {
  name: string;
  call(): Promise<unknown>;
  valid: fc.Arbitrary<Record<string, unknown>>;
  /** Where in the body the object the call returns sits (extra fields put there are kept). */
  returned(body: Record<string, unknown>): Record<string, unknown>;
}

const top = (body: Record<string, unknown>) => body;
const inner = (body: Record<string, unknown>) => body.merchant as Record<string, unknown>;

const OPS: Op[] = [
  {
    name: "merchants.list",
    call: () => sdk.merchants.list(),
    valid: withExtras(
      fc.record({
        data: fc.array(
          fc
            .tuple(str, fc.dictionary(str, fc.jsonValue({ maxDepth: 2 })))
            .map(([id, item]) => ({ ...item, id })),
        ),
      }),
    ),
    returned: top,
  },
  {
    name: "merchants.create",
    call: () => sdk.merchants.create({ name: "Shop", email: "billing@shop.example" }),
    valid: fc.record({ merchant: createdMerchant }),
    returned: inner,
  },
  {
    name: "merchants.retrieve",
    call: () => sdk.merchants.retrieve("mrch_1"),
    valid: fc.record({ merchant }),
    returned: inner,
  },
  {
    name: "settlements.list",
    call: () => sdk.settlements.list("mrch_1"),
    valid: withExtras(fc.record({ crypto: fc.array(crypto), fiat: fc.array(fiat) })),
    returned: top,
  },
  {
    name: "settlements.createCrypto",
    call: () =>
      sdk.settlements.createCrypto("mrch_1", [
        { asset: "eip155:1/slip44:60", destination: `eip155:1:0x${"ab".repeat(20)}` },
      ]),
    // Not shown by the document: any object, its `crypto` read as crypto settlements when present.
    valid: withExtras(fc.record({ crypto: fc.array(crypto) }, { requiredKeys: [] })),
    returned: top,
  },
  {
    name: "settlements.updateCrypto",
    call: () =>
      sdk.settlements.updateCrypto("mrch_1", "crypto_1", { destination: `eip155:1:0x${"ab".repeat(20)}` }),
    // Not shown by the document: any object, the fields of a crypto settlement typed where present.
    valid: withExtras(fc.record({ id: str, asset: str, destination: str }, { requiredKeys: [] })),
    returned: top,
  },
  {
    name: "payments.create",
    call: () => sdk.payments.create({ referenceId: "o", amount: { unit: "iso4217/USD", value: "1" } }),
    valid: withExtras(
      fc.record({
        id: str,
        link: fc.oneof(fc.webUrl({ validSchemes: ["https"] }), fc.constant("ethereum:0xab@8453?value=1")),
      }),
    ),
    returned: top,
  },
  {
    name: "payments.status",
    call: () => sdk.payments.status("pay_1"),
    valid: withExtras(statusResult),
    returned: top,
  },
  {
    name: "checkout.status",
    call: () => sdk.checkout.status("pay_1"),
    valid: withExtras(statusResult),
    returned: top,
  },
  {
    name: "payments.cancel",
    call: () => sdk.payments.cancel("pay_1"),
    valid: withExtras(
      fc.record({
        cancelledAt: str,
        cancelledReason: open(["cancelled_by_merchant"]),
        paymentId: str,
        status: open(["cancelled"]),
      }),
    ),
    returned: top,
  },
  {
    name: "checkout.create",
    call: () =>
      sdk.checkout.create({
        referenceId: "o",
        amount: { unit: "iso4217/USD", value: "1" },
        successUrl: "https://shop.example/ok",
        errorUrl: "https://shop.example/ko",
      }),
    valid: withExtras(fc.record({ paymentId: str, gatewayUrl: fc.webUrl({ validSchemes: ["https"] }) })),
    returned: top,
  },
  {
    name: "gateway.fetchAction",
    call: () => sdk.gateway.fetchAction("pay_1"),
    valid: withExtras(fc.record({ actions: fc.array(fc.oneof(walletRpc, unknownAction), { maxLength: 4 }) })),
    returned: top,
  },
];

/** The status invariant every parsed status result holds: unknown statuses are never final. */
function expectStatusInvariant(name: string, value: unknown) {
  if (!name.endsWith(".status")) return;
  const result = value as {
    status: string;
    isFinal: boolean;
    pollInMs?: number | null;
    info?: { txId?: unknown };
  };
  expect(result.isFinal).toBe((TERMINAL_PAYMENT_STATUSES as readonly string[]).includes(result.status));
  if (result.isFinal) expect(result.pollInMs ?? null).toBeNull();
  if (result.status === "succeeded") expect(typeof result.info?.txId).toBe("string");
}

/** The call resolved, or failed with a ResponseValidationError describing the body. Nothing else. */
/** How deep the arrays and objects of a JSON text nest (strings skipped); text that is not JSON counts what it opens. */
function nestingOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "[" || char === "{") deepest = Math.max(deepest, ++depth);
    else if (char === "]" || char === "}") depth--;
  }
  return deepest;
}

function expectParsedOrRejected(
  op: { name: string },
  result: Awaited<ReturnType<typeof settle>>,
  body: string,
  compareRaw = true,
) {
  if (result.ok) {
    expectStatusInvariant(op.name, result.value);
    return;
  }
  const error = result.error;
  if (error instanceof ResponseTooLargeError) {
    // Nesting past the documented bound is refused as too large, before any value is kept (#12.3).
    expect(error.limitDepth).toBe(MAX_JSON_DEPTH);
    expect(nestingOf(body)).toBeGreaterThan(MAX_JSON_DEPTH);
    return;
  }
  if (!(error instanceof ResponseValidationError)) throw error;
  expect(error.status).toBe(200);
  expect(error.issues.length).toBeGreaterThan(0);
  if (!compareRaw) return;
  const text = body.replace(/^\uFEFF/, ""); // decoding the body as UTF-8 drops a byte-order mark
  let json: unknown = text;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: the raw text is kept
  }
  expect(error.rawBody).toStrictEqual(json);
}

// ---------------------------------------------------------------------------------------------
// Mutations of a valid body
// ---------------------------------------------------------------------------------------------

/** Every path to a value inside a JSON value. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push(...paths(v, [...prefix, i]));
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  }
  return out;
}

/** A JSON text nested `depth` levels deep (built as text: stringifying such a value would overflow the stack). */
function deepJson(depth: number): string {
  let open = "";
  let close = "";
  for (let i = 0; i < depth; i++) {
    open += i % 2 === 0 ? "[" : '{"nested":';
    close = (i % 2 === 0 ? "]" : "}") + close;
  }
  return `${open}"bottom"${close}`;
}

function deeplyNested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { nested: value };
  return value;
}

type Mutation = { kind: "delete" } | { kind: "replace"; value: unknown } | { kind: "nest"; depth: number };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant<Mutation>({ kind: "delete" }),
  fc.jsonValue({ maxDepth: 2 }).map((value): Mutation => ({ kind: "replace", value })),
  fc
    .constantFrom(null, 0, -1, 1.5, "", true, [], {}, "walletRpc", "succeeded")
    .map((value): Mutation => ({ kind: "replace", value })),
  fc.integer({ min: 10, max: 500 }).map((depth): Mutation => ({ kind: "nest", depth })),
);

function mutate(body: unknown, pick: number, change: Mutation): unknown {
  const all = paths(body);
  const path = all[pick % all.length]!;
  const replacement =
    change.kind === "nest"
      ? deeplyNested(change.depth)
      : change.kind === "replace"
        ? change.value
        : undefined;
  if (path.length === 0) return change.kind === "delete" ? undefined : replacement;
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (change.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    parent[last] = replacement;
  }
  return copy;
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

describe.each(OPS.map((op) => [op.name, op] as const))("%s", (_name, op) => {
  it("parses every valid body, keeping extra fields, unknown enum values and unknown action types", async () => {
    await fc.assert(
      fc.asyncProperty(op.valid, extras, async (body, more) => {
        Object.assign(op.returned(body), more);
        const result = await respondWith(200, JSON.stringify(body), op.call);
        if (!result.ok) throw result.error;
        const value = result.value as Record<string, unknown>;
        for (const [key, extra] of Object.entries(more)) {
          expect(value[key]).toStrictEqual(JSON.parse(JSON.stringify(extra)));
        }
        expectStatusInvariant(op.name, value);
        if (op.name === "gateway.fetchAction") {
          const actions = (body as { actions: { type: string }[] }).actions;
          expect((value.actions as { type: string }[]).map((a) => a.type)).toEqual(
            actions.map((a) => a.type),
          );
        }
      }),
      RUNS,
    );
  });

  it("answers a mutated body (missing fields, wrong types, deep nesting) with the value or a ResponseValidationError", async () => {
    await fc.assert(
      fc.asyncProperty(op.valid, fc.nat(), mutation, async (valid, pick, change) => {
        const body = mutate(valid, pick, change);
        const text = body === undefined ? "" : JSON.stringify(body);
        expectParsedOrRejected(op, await respondWith(200, text, op.call), text);
      }),
      RUNS,
    );
  });

  it("answers any JSON, any text and any truncation with the value or a ResponseValidationError", async () => {
    const text = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc.string(),
      fc.tuple(op.valid, fc.nat()).map(([v, n]) => {
        const full = JSON.stringify(v);
        return full.slice(0, n % full.length);
      }),
      fc.constantFrom("", "null", "[]", "<html><body>OK</body></html>", "\uFEFF{}", '{"a":1}{"b":2}'),
    );
    await fc.assert(
      fc.asyncProperty(text, async (body) => {
        expectParsedOrRejected(op, await respondWith(200, body, op.call), body);
      }),
      RUNS,
    );
  });
});

describe.each(OPS.map((op) => [op.name, op] as const))("%s, read tolerantly", (_name, op) => {
  it("answers a mutated body with the value as it arrived (drift quoting no string) or a ResponseValidationError", async () => {
    await fc.assert(
      fc.asyncProperty(op.valid, fc.nat(), mutation, async (valid, pick, change) => {
        const body = mutate(valid, pick, change);
        const text = body === undefined ? "" : JSON.stringify(body);
        sdk = tolerantSdk;
        drift.length = 0;
        try {
          const result = await respondWith(200, text, op.call);
          if (!result.ok) {
            expectParsedOrRejected(op, result, text);
            return;
          }
          for (const event of drift) {
            expect(event.received.length).toBeLessThanOrEqual(40);
            expect(event.received).not.toMatch(/^"/);
          }
          if (op.name.endsWith(".status")) expectReturnedAsArrived(JSON.parse(text), result.value);
        } finally {
          sdk = strictSdk;
        }
      }),
      RUNS,
    );
  });
});

/** A status answer read tolerantly is the body as it arrived; it is fulfillable only when it says so plainly. */
function expectReturnedAsArrived(body: unknown, value: unknown) {
  expect(value).toStrictEqual(body);
  const { status, isFinal } = value as { status: unknown; isFinal: unknown };
  expect(isFulfillable(value as never)).toBe(status === "succeeded" && isFinal === true);
}

describe("deep nesting", () => {
  it.each(OPS.map((op) => [op.name, op] as const))(
    "%s refuses a body nested 10,000 levels deep as too deep, and survives it",
    async (_name, op) => {
      const deep = deepJson(10_000);
      for (const text of [
        deep,
        `{"x_deep":${deep}}`,
        `{"data":${deep},"actions":${deep},"merchant":${deep}}`,
      ]) {
        expectParsedOrRejected(op, await respondWith(200, text, op.call), text, false);
      }
    },
  );
});

describe("error answers", () => {
  const familyOf = (status: number, code: unknown) => {
    if (code === "rate_limited" || status === 429) return RateLimitError;
    if (code === "settlement_asset_conflict" || status === 409) return ConflictError;
    if (status === 401) return AuthenticationError;
    if (status === 403) return PermissionDeniedError;
    if (status === 404) return NotFoundError;
    return status >= 500 ? InternalServerError : BadRequestError;
  };
  const errorBody = fc.oneof(
    fc
      .record(
        {
          message: fc.oneof(str, fc.jsonValue()),
          code: fc.oneof(
            unknownWord,
            fc.constantFrom("rate_limited", "settlement_asset_conflict", "not_found"),
            fc.jsonValue(),
          ),
          details: fc.jsonValue({ maxDepth: 3 }),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string(),
    fc.constant(`{"message":"deep","code":"deep","details":{"d":${deepJson(10_000)}}}`),
  );

  it("every 4xx/5xx answer, whatever its body, is an APIError of its family with the status and a string code or none", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 400, max: 599 }),
        errorBody,
        fc.constantFrom(...OPS),
        async (status, body, op) => {
          const result = await respondWith(status, body, op.call);
          expect(result.ok).toBe(false);
          const error = (result as { error: unknown }).error;
          if (!(error instanceof APIError)) throw error;
          let code: unknown;
          try {
            code = (JSON.parse(body) as { code?: unknown } | null)?.code;
          } catch {
            code = undefined;
          }
          expect(error).toBeInstanceOf(familyOf(status, typeof code === "string" ? code : undefined));
          expect(error.status).toBe(status);
          expect(error.code).toBe(typeof code === "string" ? code : undefined);
          if (error.details !== undefined) expect(typeof error.details).toBe("object");
        },
      ),
      { numRuns: 200 },
    );
  });
});
