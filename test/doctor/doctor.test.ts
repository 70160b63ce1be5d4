/**
 * `merchant-payments-doctor`, run in process against the bundled mock (its own fetch function), and against the
 * mock with its answers changed on the way: a required field renamed, an unknown field, an unknown enum value, a
 * mistyped field, a dropped header. Exactly those paths are reported, with the exit status the docs promise.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { doctorMain } from "../../src/doctor/main.js";
import { colourWanted, type DoctorReport } from "../../src/doctor/report.js";
import { createMockService, MOCK_DEFAULT_VERSION, type MockService } from "../../src/testing/index.js";
import { testClient } from "../helpers/clients.js";

let mock: MockService;
let printed: string[];

beforeEach(() => {
  mock = createMockService();
  printed = [];
  vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", mock.keys.test);
});

afterEach(() => {
  // Whatever a run printed, neither key nor any idempotency key (a UUID) appears in it.
  for (const text of printed) {
    expect(text).not.toContain(mock.keys.test);
    expect(text).not.toContain(mock.keys.live);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
  }
});

/** A change of one answer on its way back: the body to send instead (or `undefined` to keep it), headers in place. */
// oxlint-disable-next-line typescript/no-explicit-any -- the tests change arbitrary JSON
type Change = (answer: { method: string; path: string; body: any; headers: Headers }) => unknown;

/** The mock's fetch, with each answer passed through `change`; the payments created are collected in `created`. */
function serving(change: Change = () => undefined, created: string[] = []): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await mock.fetch(request);
    const { method } = request;
    const path = new URL(request.url).pathname;
    const text = await response.text();
    const headers = new Headers(response.headers);
    const body = text === "" ? undefined : JSON.parse(text);
    if (method === "POST" && (path === "/v1/payments" || path === "/v1/merchant/payment") && response.ok) {
      created.push(body.id ?? body.paymentId);
    }
    const sent = change({ method, path, body, headers }) ?? body;
    return new Response(sent === undefined ? null : JSON.stringify(sent), {
      status: response.status,
      headers,
    });
  };
}

/** Runs the doctor with `args` (the mock's base URL added) and returns its exit status and output. */
async function doctor(args: string[], fetch: typeof globalThis.fetch = serving(), colour = false) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await doctorMain(["--base-url", mock.baseUrl, ...args], {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    colour,
    fetch,
  });
  printed.push(...out, ...err);
  return { status, out: out.join(""), err: err.join("") };
}

async function jsonReport(args: string[] = [], fetch?: typeof globalThis.fetch) {
  const { status, out, err } = await doctor(["--json", ...args], fetch);
  return { status, report: JSON.parse(out) as DoctorReport, err };
}

const ALL = [
  "merchants.list",
  "merchants.retrieve",
  "settlements.list",
  "payments.create",
  "payments.status",
  "payments.cancel",
  "checkout.create",
  "checkout.status",
];

/** The drift of one operation of a report. */
const driftOf = (report: DoctorReport, name: string) =>
  report.operations.find((op) => op.name === name)?.drift;

describe("the doctor against the bundled mock", () => {
  it("runs every read and, with a test key, a payment and a checkout: every operation ok, exit 0", async () => {
    const created: string[] = [];
    const { status, report } = await jsonReport([], serving(undefined, created));
    expect(status).toBe(0);
    expect(report.service).toEqual({
      baseUrl: mock.baseUrl,
      mode: "test",
      version: MOCK_DEFAULT_VERSION,
      clockSkewMs: null,
    });
    expect(report.operations.map((op) => [op.name, op.outcome, op.drift])).toEqual(
      ALL.map((name) => [name, "ok", []]),
    );
    for (const op of report.operations) {
      expect(Object.keys(op).sort()).toEqual(["drift", "latencyMs", "name", "outcome"]);
      expect(op.latencyMs).toBeGreaterThanOrEqual(0);
    }
    // It cleans up: the payment and the checkout it created are both cancelled.
    expect(created).toHaveLength(2);
    for (const id of created) expect(mock.getPayment(id).status).toBe("cancelled");
  });

  it("prints a short table by default, coloured only when asked (a terminal without NO_COLOR)", async () => {
    const plain = await doctor([]);
    expect(plain.status).toBe(0);
    expect(plain.out).toContain(`version ${MOCK_DEFAULT_VERSION}`);
    for (const name of ALL) expect(plain.out).toMatch(new RegExp(`\\n  ${name.replace(".", "\\.")} +ok `));
    expect(plain.out).toContain("8 operations: 8 ok, 0 drift, 0 error.");
    expect(plain.out).not.toContain("\u001b[");
    expect((await doctor([], serving(), true)).out).toContain("\u001b[32mok");
    expect(colourWanted(true, {})).toBe(true);
    expect(colourWanted(true, { NO_COLOR: "1" })).toBe(false);
    expect(colourWanted(false, {})).toBe(false);
    expect(colourWanted(undefined, {})).toBe(false);
  });

  it("with a live key only reads, unless --allow-live-writes", async () => {
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", mock.keys.live);
    const reads = await jsonReport();
    expect(reads.report.service.mode).toBe("live");
    expect(reads.report.operations.map((op) => op.name)).toEqual([
      "merchants.list",
      "merchants.retrieve",
      "settlements.list",
    ]);
    expect(reads.err).toContain("--allow-live-writes");
    expect(reads.err).toContain("payments.status was not run: pass --payment-id");
    const live = await testClient(mock, {
      apiKey: mock.keys.live,
      merchantId: mock.liveMerchantId ?? "",
      fetch: mock.fetch,
    }).payments.create({
      referenceId: "live-order",
      amount: { unit: "iso4217/USD", value: "100" },
    });
    const withPayment = await jsonReport(["--payment-id", live.id]);
    expect(withPayment.report.operations.map((op) => [op.name, op.outcome]).at(-1)).toEqual([
      "payments.status",
      "ok",
    ]);
    expect(mock.getPayment(live.id).status).toBe("requires_action");
    const created: string[] = [];
    const writes = await jsonReport(["--allow-live-writes"], serving(undefined, created));
    expect(writes.report.operations.map((op) => op.name)).toEqual(ALL);
    for (const id of created) expect(mock.getPayment(id).status).toBe("cancelled");
  });
});

describe("the doctor reports exactly where a service drifts", () => {
  it("a required field renamed: missing where the SDK reads it, extra where it went; exit 1", async () => {
    const { status, report } = await jsonReport(
      [],
      serving(({ path, body }) => {
        if (!/^\/v1\/payments\/[^/]+\/status$/.test(path)) return undefined;
        const { status: state, ...rest } = body;
        return { ...rest, state };
      }),
    );
    expect(driftOf(report, "payments.status")).toEqual([
      { path: "status", kind: "missing" },
      { path: "state", kind: "extra" },
    ]);
    expect(report.operations.filter((op) => op.outcome !== "ok").map((op) => op.name)).toEqual([
      "payments.status",
    ]);
    expect(status).toBe(1);
  });

  it("an unknown field and an unknown enum value: extra and enum, exit 0", async () => {
    const { status, report } = await jsonReport(
      [],
      serving(({ method, path, body }) =>
        method === "GET" && /^\/v1\/merchants\/[^/]+$/.test(path)
          ? { merchant: { ...body.merchant, status: "paused", tier: "gold" } }
          : undefined,
      ),
    );
    const retrieve = report.operations.find((op) => op.name === "merchants.retrieve");
    expect(retrieve?.outcome).toBe("drift");
    expect(retrieve?.drift).toEqual([
      { path: "merchant.status", kind: "enum" },
      { path: "merchant.tier", kind: "extra" },
    ]);
    expect(status).toBe(0);
  });

  it("a field of another type in an array item: type, by field path; exit 1", async () => {
    const { status, report } = await jsonReport(
      [],
      serving(({ path, body }) =>
        path.endsWith("/settlements")
          ? { ...body, crypto: body.crypto.map((c: object) => ({ ...c, asset: 8453 })) }
          : undefined,
      ),
    );
    expect(driftOf(report, "settlements.list")).toEqual([{ path: "crypto.*.asset", kind: "type" }]);
    expect(status).toBe(1);
  });

  it("a dropped header: the request id the SDK reads is missing; exit 1", async () => {
    const { status, report } = await jsonReport(
      [],
      serving(({ path, headers }) => {
        if (path === "/v1/merchants") headers.delete("request-id");
        return undefined;
      }),
    );
    expect(driftOf(report, "merchants.list")).toEqual([{ path: "headers.request-id", kind: "missing" }]);
    expect(report.operations.filter((op) => op.outcome !== "ok")).toHaveLength(1);
    expect(status).toBe(1);
  });

  it("with --version-header, an answer without the version echo: that header is missing", async () => {
    const header = mock.versionHeader.toLowerCase();
    const { status, report } = await jsonReport(
      ["--version-header", mock.versionHeader],
      serving(({ path, headers }) => {
        if (path.endsWith("/settlements")) headers.delete(header);
        return undefined;
      }),
    );
    expect(report.service.version).toBe(MOCK_DEFAULT_VERSION);
    expect(driftOf(report, "settlements.list")).toEqual([{ path: `headers.${header}`, kind: "missing" }]);
    expect(report.operations.filter((op) => op.outcome !== "ok")).toHaveLength(1);
    expect(status).toBe(1);
  });

  it("reports rate-limit headers when the service sends them", async () => {
    const { report } = await jsonReport(
      [],
      serving(({ headers }) => {
        headers.set("RateLimit-Remaining", "41");
        return undefined;
      }),
    );
    expect(report.operations[0]?.rateLimit).toEqual({ "ratelimit-remaining": "41" });
  });

  it("an operation that fails is an error with its class, status and code, and the rest still run; exit 1", async () => {
    mock.injectFault({
      type: "serverError",
      status: 503,
      method: "GET",
      path: "/v1/merchants/*/settlements",
    });
    const { status, report } = await jsonReport();
    const failed = report.operations.find((op) => op.name === "settlements.list");
    expect(failed).toMatchObject({ outcome: "error", drift: [] });
    expect(failed?.error).toEqual({ class: "InternalServerError", status: 503, code: expect.any(String) });
    expect(report.operations).toHaveLength(ALL.length);
    expect(status).toBe(1);
  });

  it("cancels the payment it created when its own cancel check failed", async () => {
    mock.injectFault({ type: "serverError", method: "POST", path: "/v1/payments/*/cancel", times: 1 });
    const created: string[] = [];
    const { report } = await jsonReport([], serving(undefined, created));
    expect(report.operations.find((op) => op.name === "payments.cancel")?.outcome).toBe("error");
    for (const id of created) expect(mock.getPayment(id).status).toBe("cancelled");
  });

  it("never prints the key, even when a service echoes it into a field name", async () => {
    const key = mock.keys.test;
    const echo = serving(({ path, body }) =>
      path === "/v1/merchants" ? { ...body, [key]: true } : undefined,
    );
    const json = await doctor(["--json"], echo);
    expect(json.out).toContain('"path": "[redacted]"');
    const human = await doctor([], echo);
    expect(human.out).toContain("extra: [redacted]");
  });
});

describe("the doctor's usage", () => {
  it.each([
    [["--bogus"], /Unknown option '--bogus'/],
    [["stray"], /positional argument/],
    [["--timeout", "0"], /--timeout must be a number of seconds/],
    [["--timeout", "soon"], /--timeout must be a number of seconds/],
  ])("%j is bad usage: exit 2 with the usage line", async (args, message) => {
    const { status, out, err } = await doctor(args);
    expect(status).toBe(2);
    expect(out).toBe("");
    expect(err).toMatch(message);
    expect(err).toContain("Usage: merchant-payments-doctor");
  });

  it("without a key or a base URL: exit 2, naming the variable, nothing sent", async () => {
    const sent: string[] = [];
    const counting: typeof fetch = (input, init) => {
      sent.push(String(input));
      return mock.fetch(input as Request, init);
    };
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", "");
    const noKey = await doctor([], counting);
    expect([noKey.status, noKey.err]).toEqual([2, expect.stringContaining("MERCHANT_PAYMENTS_API_KEY")]);
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", mock.keys.test);
    const out: string[] = [];
    const noBase = await doctorMain([], {
      stdout: (t) => out.push(t),
      stderr: (t) => out.push(t),
      colour: false,
      fetch: counting,
    });
    expect([noBase, out.join("")]).toEqual([2, expect.stringContaining("MERCHANT_PAYMENTS_BASE_URL")]);
    expect(sent).toEqual([]);
  });

  it("--help prints every flag and exits 0", async () => {
    const { status, out } = await doctor(["--help"]);
    expect(status).toBe(0);
    for (const flag of [
      "--base-url",
      "--merchant-id",
      "--payment-id",
      "--allow-live-writes",
      "--timeout",
      "--json",
    ]) {
      expect(out).toContain(flag);
    }
  });

  it("stops at its deadline: what was under way is an error, the rest is not run; exit 1", async () => {
    mock.injectFault({ type: "latency", latencyMs: 60_000, method: "GET", path: "/v1/merchants" });
    const { status, report, err } = await jsonReport(["--timeout", "0.2"]);
    expect(report.operations.map((op) => [op.name, op.outcome])).toEqual([["merchants.list", "error"]]);
    expect(err).toContain("was not run: the deadline (--timeout) passed");
    expect(status).toBe(1);
    mock.reset();
  });
});
