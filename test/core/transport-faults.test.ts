/**
 * Faults: every operation × every fault, through the public client against a raw HTTP server on
 * 127.0.0.1. Each cell ends in a successful retry where retrying is safe and allowed, or in the typed error the
 * README promises, after exactly the expected number of requests, and never in an unhandled rejection, a hang,
 * a raw TypeError or a leaked key.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  BadRequestError,
  type ClientOptions,
  ConnectionError,
  InternalServerError,
  type MerchantPaymentsClient,
  MerchantPaymentsError,
  RateLimitError,
  type RequestOptions,
  ResponseValidationError,
  type RetryEvent,
  TimeoutError,
} from "../../src/index.js";
import { testClient } from "../helpers/clients.js";
import { type FaultServer, type Step, startFaultServer } from "../helpers/fault-server.js";
import { CREATED_AT, CREATED_MERCHANT, MERCHANT } from "../helpers/fixtures.js";
import { flushRejections, settle, trackUnhandledRejections } from "../helpers/outcomes.js";
import { expectNoSecret, SECRET_KEY } from "../helpers/secrets.js";

// ---------------------------------------------------------------------------------------------
// Operations: what each sends, whether a repeat is safe, and a valid answer
// ---------------------------------------------------------------------------------------------

const MERCHANT_ID = "mrch_matrix1";
const PAYMENT_ID = "pay_matrix1";
const ASSET = "eip155:84532/erc20:0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const DESTINATION = "eip155:84532:0x000000000000000000000000000000000000bEEF";

interface Operation {
  name: string;
  method: "GET" | "POST" | "PUT";
  path: string;
  /** GET/PUT, or a POST the SDK always sends with an Idempotency-Key: retried after any transient failure. */
  retrySafe: boolean;
  /** POSTs: the SDK always keys them (the key must be the same on every attempt). */
  alwaysKeyed: boolean;
  /** The response body is undocumented and returned as sent: no shape to violate. */
  opaque: boolean;
  okBody: unknown;
  call(client: MerchantPaymentsClient, options?: RequestOptions): Promise<unknown>;
}

const OPERATIONS: Operation[] = [
  {
    name: "merchants.list",
    method: "GET",
    path: "/v1/merchants",
    retrySafe: true,
    alwaysKeyed: false,
    opaque: false,
    okBody: { data: [] },
    call: (c, o) => c.merchants.list(undefined, o),
  },
  {
    name: "merchants.create",
    method: "POST",
    path: "/v1/merchants",
    retrySafe: true,
    alwaysKeyed: true,
    opaque: false,
    okBody: { merchant: { ...CREATED_MERCHANT.merchant, id: MERCHANT_ID } },
    call: (c, o) => c.merchants.create({ name: "Shop", email: "billing@shop.example" }, o),
  },
  {
    name: "merchants.retrieve",
    method: "GET",
    path: `/v1/merchants/${MERCHANT_ID}`,
    retrySafe: true,
    alwaysKeyed: false,
    opaque: false,
    okBody: { merchant: { ...MERCHANT, id: MERCHANT_ID } },
    call: (c, o) => c.merchants.retrieve(MERCHANT_ID, o),
  },
  {
    name: "settlements.list",
    method: "GET",
    path: `/v1/merchants/${MERCHANT_ID}/settlements`,
    retrySafe: true,
    alwaysKeyed: false,
    opaque: false,
    okBody: { crypto: [], fiat: [] },
    call: (c, o) => c.settlements.list(MERCHANT_ID, o),
  },
  {
    name: "settlements.createCrypto",
    method: "POST",
    path: `/v1/merchants/${MERCHANT_ID}/settlements/crypto`,
    retrySafe: true,
    alwaysKeyed: true,
    opaque: true,
    okBody: { crypto: [{ id: "crypto_1", asset: ASSET, destination: DESTINATION }] },
    call: (c, o) => c.settlements.createCrypto(MERCHANT_ID, [{ asset: ASSET, destination: DESTINATION }], o),
  },
  {
    name: "settlements.updateCrypto",
    method: "PUT",
    path: `/v1/merchants/${MERCHANT_ID}/settlements/crypto/crypto_1`,
    retrySafe: true,
    alwaysKeyed: false,
    opaque: true,
    okBody: { id: "crypto_1", asset: ASSET, destination: DESTINATION },
    call: (c, o) => c.settlements.updateCrypto(MERCHANT_ID, "crypto_1", { destination: DESTINATION }, o),
  },
  {
    name: "payments.create",
    method: "POST",
    path: "/v1/payments",
    retrySafe: true,
    alwaysKeyed: true,
    opaque: false,
    okBody: { id: PAYMENT_ID, paymentLink: "https://portal.example/p/pay_matrix1" },
    call: (c, o) =>
      c.payments.create({ referenceId: "order-1", amount: { unit: "iso4217/USD", value: "1999" } }, o),
  },
  {
    name: "payments.status",
    method: "GET",
    path: `/v1/payments/${PAYMENT_ID}/status`,
    retrySafe: true,
    alwaysKeyed: false,
    opaque: false,
    okBody: { status: "processing", isFinal: false, pollInMs: 1000 },
    call: (c, o) => c.payments.status(PAYMENT_ID, o),
  },
  {
    name: "payments.cancel",
    method: "POST",
    path: `/v1/payments/${PAYMENT_ID}/cancel`,
    retrySafe: true,
    alwaysKeyed: true,
    opaque: false,
    okBody: {
      cancelledAt: CREATED_AT,
      cancelledReason: "cancelled_by_merchant",
      paymentId: PAYMENT_ID,
      status: "cancelled",
    },
    call: (c, o) => c.payments.cancel(PAYMENT_ID, o),
  },
  {
    name: "checkout.create",
    method: "POST",
    path: "/v1/merchant/payment",
    retrySafe: true,
    alwaysKeyed: true,
    opaque: false,
    okBody: { paymentId: PAYMENT_ID, gatewayUrl: "https://portal.example/pay_matrix1" },
    call: (c, o) =>
      c.checkout.create(
        {
          referenceId: "order-1",
          amount: { unit: "iso4217/USD", value: "1999" },
          successUrl: "https://shop.example/ok",
          errorUrl: "https://shop.example/ko",
        },
        o,
      ),
  },
  {
    name: "checkout.status",
    method: "GET",
    path: `/v1/merchant/payment/${PAYMENT_ID}/status`,
    retrySafe: true,
    alwaysKeyed: false,
    opaque: false,
    okBody: { status: "requires_action", isFinal: false, pollInMs: 1000 },
    call: (c, o) => c.checkout.status(PAYMENT_ID, o),
  },
  {
    name: "gateway.fetchAction",
    method: "POST",
    path: `/v1/gateway/payment/${PAYMENT_ID}/fetch`,
    retrySafe: true,
    alwaysKeyed: true,
    opaque: false,
    okBody: { actions: [{ type: "someFutureAction", data: { x: 1 } }] },
    call: (c, o) => c.gateway.fetchAction(PAYMENT_ID, { optionId: "crypto_1" }, o),
  },
];

// ---------------------------------------------------------------------------------------------
// Faults: the scripted answers, and the outcome for a retry-safe and for an unsafe operation
// ---------------------------------------------------------------------------------------------

type ErrorClass = abstract new (...args: never[]) => Error;
type Outcome = { ok: true; requests: number } | { error: ErrorClass; requests: number };

interface Fault {
  name: string;
  steps(op: Operation): Step[];
  /** Outcome for an operation that may be repeated (GET, PUT, always-keyed POST). */
  safe: Outcome;
  /** Outcome for a POST without an idempotency key. */
  unsafe: Outcome;
  /** Outcome for an operation whose body is returned as sent, when it differs. */
  opaque?: Outcome;
  /** Client timeout per attempt (small for the faults that never answer). */
  timeoutMs?: number;
  /** The delay the retry must announce (a capped Retry-After). */
  retryDelayMs?: number;
}

const ok = (op: Operation): Step => ({ kind: "json", status: 200, body: op.okBody });
const apiError = (status: number, code: string, headers: Record<string, string> = {}): Step => ({
  kind: "json",
  status,
  body: { message: `${code} (injected)`, code },
  headers,
});
const HTML = "<!doctype html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";
const RETRIED = { ok: true, requests: 2 } as const;

const FAULTS: Fault[] = [
  {
    name: "429 rate_limited without Retry-After",
    steps: (op) => [apiError(429, "rate_limited"), ok(op)],
    safe: RETRIED,
    unsafe: RETRIED, // a rate-limit refusal was not acted upon: even an unkeyed POST may repeat it
  },
  {
    name: "429 with Retry-After in seconds (capped by maxRetryAfterMs)",
    steps: (op) => [apiError(429, "rate_limited", { "retry-after": "3" }), ok(op)],
    safe: RETRIED,
    unsafe: RETRIED,
    retryDelayMs: 50,
  },
  {
    name: "429 with Retry-After as an HTTP date (capped by maxRetryAfterMs)",
    steps: (op) => [
      apiError(429, "rate_limited", { "retry-after": new Date(Date.now() + 30_000).toUTCString() }),
      ok(op),
    ],
    safe: RETRIED,
    unsafe: RETRIED,
    retryDelayMs: 50,
  },
  {
    name: "429 on every attempt",
    steps: () => [apiError(429, "rate_limited", { "retry-after": "0" })],
    safe: { error: RateLimitError, requests: 3 },
    unsafe: { error: RateLimitError, requests: 3 },
  },
  ...[500, 502, 503, 504].map((status): Fault => ({
    name: `${status} with an error body`,
    steps: (op) => [apiError(status, "server_error"), ok(op)],
    safe: RETRIED,
    unsafe: { error: InternalServerError, requests: 1 },
  })),
  {
    name: "503 on every attempt",
    steps: () => [apiError(503, "service_unavailable")],
    safe: { error: InternalServerError, requests: 3 },
    unsafe: { error: InternalServerError, requests: 1 },
  },
  {
    name: "408 request timeout",
    steps: (op) => [apiError(408, "request_timeout"), ok(op)],
    safe: RETRIED,
    unsafe: { error: BadRequestError, requests: 1 },
  },
  {
    name: "connection reset before the headers",
    steps: (op) => [{ kind: "resetBeforeHeaders" }, ok(op)],
    safe: RETRIED,
    unsafe: { error: ConnectionError, requests: 1 },
  },
  {
    name: "connection reset before the headers, on every attempt",
    steps: () => [{ kind: "resetBeforeHeaders" }],
    safe: { error: ConnectionError, requests: 3 },
    unsafe: { error: ConnectionError, requests: 1 },
  },
  {
    name: "connection reset after the headers",
    steps: (op) => [{ kind: "resetAfterHeaders" }, ok(op)],
    safe: RETRIED,
    // The status arrived: the service answered, so never "could not reach the service" (issue #21 item 6).
    unsafe: { error: ResponseValidationError, requests: 1 },
  },
  {
    name: "an answer that never comes",
    steps: (op) => [{ kind: "hang" }, ok(op)],
    safe: RETRIED,
    unsafe: { error: TimeoutError, requests: 1 },
    // The deadline applies to the answering attempt too: leave a loaded CI machine ample time to answer it.
    timeoutMs: 400,
  },
  {
    name: "an answer that never comes, on every attempt",
    steps: () => [{ kind: "hang" }],
    safe: { error: TimeoutError, requests: 3 },
    unsafe: { error: TimeoutError, requests: 1 },
    timeoutMs: 400,
  },
  {
    name: "a 200 body cut off mid-way",
    steps: (op) => [{ kind: "truncate", status: 200, body: JSON.stringify(op.okBody) }, ok(op)],
    safe: RETRIED,
    unsafe: { error: ResponseValidationError, requests: 1 },
  },
  {
    name: "an HTML 502 page from a proxy",
    steps: (op) => [{ kind: "text", status: 502, body: HTML, contentType: "text/html" }, ok(op)],
    safe: RETRIED,
    unsafe: { error: InternalServerError, requests: 1 },
  },
  {
    name: "an empty 503",
    steps: (op) => [{ kind: "text", status: 503, body: "" }, ok(op)],
    safe: RETRIED,
    unsafe: { error: InternalServerError, requests: 1 },
  },
  {
    name: "an HTML 200 page",
    steps: () => [{ kind: "text", status: 200, body: HTML, contentType: "text/html" }],
    safe: { error: ResponseValidationError, requests: 1 },
    unsafe: { error: ResponseValidationError, requests: 1 },
  },
  {
    name: "an empty 200",
    steps: () => [{ kind: "text", status: 200, body: "" }],
    safe: { error: ResponseValidationError, requests: 1 },
    unsafe: { error: ResponseValidationError, requests: 1 },
    opaque: { ok: true, requests: 1 },
  },
  {
    name: "invalid JSON in a 200",
    steps: () => [{ kind: "text", status: 200, body: '{"id": "pay_1",', contentType: "application/json" }],
    safe: { error: ResponseValidationError, requests: 1 },
    unsafe: { error: ResponseValidationError, requests: 1 },
  },
  {
    name: "a 200 body of the wrong shape",
    steps: () => [{ kind: "json", status: 200, body: { unexpected: [1, 2, 3], id: 42 } }],
    safe: { error: ResponseValidationError, requests: 1 },
    unsafe: { error: ResponseValidationError, requests: 1 },
    opaque: { ok: true, requests: 1 },
  },
];

function expectedOutcome(op: Operation, fault: Fault, keyed: boolean): Outcome {
  if (op.opaque && fault.opaque) return fault.opaque;
  return op.retrySafe || keyed ? fault.safe : fault.unsafe;
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

const rejections = trackUnhandledRejections();
/** Everything the SDK reported through hooks and the logger over the whole file. */
const reported: unknown[] = [];

afterAll(async () => {
  await flushRejections();
  rejections.stop();
});

function client(baseUrl: string, retries: RetryEvent[], options: ClientOptions = {}): MerchantPaymentsClient {
  return testClient({
    apiKey: SECRET_KEY,
    baseUrl,
    merchantId: "mrch_default",
    timeoutMs: 2_000,
    maxRetries: 2,
    retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 50 },
    hooks: {
      onRequest: (event) => reported.push(event),
      onResponse: (event) => reported.push(event),
      onRetry: (event) => {
        reported.push(event);
        retries.push(event);
      },
    },
    logger: { debug: (record) => reported.push(record), warn: (record) => reported.push(record) },
    logLevel: "debug",
    ...options,
  });
}

/** Fails the test instead of hanging when a call does not settle. */
function guarded<T>(promise: Promise<T>, ms = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the call did not settle within ${ms} ms (a hang)`)), ms);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

/** One cell: its own server (so cells can run side by side), the call, then every check. */
async function runCell(op: Operation, fault: Fault, options: RequestOptions = {}) {
  const server = await startFaultServer();
  try {
    await checkCell(server, op, fault, options);
  } finally {
    await server.close();
  }
}

async function checkCell(server: FaultServer, op: Operation, fault: Fault, options: RequestOptions) {
  server.script(...fault.steps(op));
  const retries: RetryEvent[] = [];
  const sdk = client(server.url, retries, fault.timeoutMs ? { timeoutMs: fault.timeoutMs } : {});
  const result = await guarded(settle(() => op.call(sdk, options)));
  const expected = expectedOutcome(op, fault, options.idempotencyKey !== undefined);

  // Exactly the expected number of requests, all to the operation's path, all identical.
  expect(server.requests).toHaveLength(expected.requests);
  for (const request of server.requests) {
    expect(request.method).toBe(op.method);
    expect(new URL(request.url, server.url).pathname).toBe(op.path);
    expect(request.headers["api-key"]).toBe(SECRET_KEY);
  }
  expect(new Set(server.requests.map((r) => r.body)).size).toBe(1);
  const keys = new Set(server.requests.map((r) => r.headers["idempotency-key"]));
  expect(keys.size).toBe(1);
  if (op.alwaysKeyed && !options.idempotencyKey) expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
  if (options.idempotencyKey) expect([...keys][0]).toBe(options.idempotencyKey);
  expect(retries).toHaveLength(expected.requests - 1);
  if (fault.retryDelayMs !== undefined && retries[0]) expect(retries[0].delayMs).toBe(fault.retryDelayMs);

  if ("ok" in expected) {
    if (!result.ok) throw result.error;
    expectNoSecret(result.value, "the result");
  } else {
    expect(result.ok, "the call should have failed").toBe(false);
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(expected.error);
    expect(error).toBeInstanceOf(MerchantPaymentsError);
    expect(error).not.toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ method: op.method, path: op.path });
    expectNoSecret(error, "the error");
  }
}

const CELLS = OPERATIONS.flatMap((op) => FAULTS.map((fault) => [op.name, fault.name, op, fault] as const));

describe("operation × fault", () => {
  it.concurrent.each(CELLS)("%s: %s", async (_op, _fault, op, fault) => {
    await runCell(op, fault);
  });
});

/** Transient faults after which a POST is repeated under its key: the caller's when given. */
const TRANSIENT = [
  "503 with an error body",
  "connection reset after the headers",
  "an answer that never comes",
  "a 200 body cut off mid-way",
];
const KEYED_CELLS = OPERATIONS.filter((op) => op.method === "POST").flatMap((op) =>
  FAULTS.filter((fault) => TRANSIENT.includes(fault.name)).map(
    (fault) => [op.name, fault.name, op, fault] as const,
  ),
);

describe("POSTs with options.idempotencyKey", () => {
  it.concurrent.each(KEYED_CELLS)("%s: %s is retried under the caller's key", async (_op, _f, op, fault) => {
    await runCell(op, fault, { idempotencyKey: `order-42-${op.name}` });
  });
});

describe("the whole matrix", () => {
  it("covers every operation of the client", () => {
    const methods = (["merchants", "settlements", "payments", "checkout", "gateway"] as const).flatMap(
      (ns) => {
        const resource = client("http://127.0.0.1:1", [])[ns];
        return Object.getOwnPropertyNames(Object.getPrototypeOf(resource))
          .filter((m) => m !== "constructor" && !["waitForFinal", "watch", "verifyReturn"].includes(m))
          .map((m) => `${ns}.${m}`);
      },
    );
    expect(OPERATIONS.map((op) => op.name).sort()).toEqual(methods.sort());
  });

  it("left no unhandled rejection, and no hook payload or log line holds the key", async () => {
    await flushRejections();
    expect(rejections.seen).toEqual([]);
    expect(reported.length).toBeGreaterThan(100);
    expectNoSecret(reported, "hook payloads and log lines");
  });
});
