// The SDK's own work per call, without the network: `payments.status()` and `payments.create()` given a `fetch` that
// answers from memory, against the ky floor (ky 2 with the SDK's ky options) over the same user-fetch adapter and the
// same fake `fetch`. The difference is what the SDK adds (input checks, headers, bounded JSON, redaction, zod,
// result metadata, the telemetry-off path), free of the loopback noise that dominates `bench/http.mjs` on a busy
// machine. "ky floor + checks" is the floor plus the checks every call promises (lib/checks.mjs): what keeping the
// promises costs, apart from the SDK's machinery. Also the same client with `telemetry: true` over the no-op global providers (the API installed, no
// OpenTelemetry SDK registered). Client CPU, variants interleaved, median of rounds.
//
//   node bench/own-work.mjs [--rounds=9] [--calls=3000] [--json]
//   node bench/own-work.mjs --allocation-only --json   (heap allocated per call only: the budget check's input)
import { pathToFileURL } from "node:url";
import ky from "ky";
import {
  allocatedPerCall,
  DIST,
  distChunk,
  fmt,
  isMain,
  loadAdapter,
  median,
  parseArgs,
  requireDist,
  table,
} from "./lib/common.mjs";
import { CLIENT_OPTIONS, CREATE_INPUT, HEADERS, PAYMENT_ID } from "./lib/fixtures.mjs";
import { memoryFetch } from "./lib/status-body.mjs";

const BASE = "http://127.0.0.1:9";

/**
 * `withChecks`: also "ky floor + checks". Left out of the budget's allocation figures: its zod schemas in the same
 * process move what the others allocate by up to 2 KB (the figures the budgets were set on have none).
 */
async function variants({ withChecks = true } = {}) {
  const checks = withChecks ? await import("./lib/checks.mjs") : undefined;
  const { MerchantPaymentsClient } = await import(pathToFileURL(DIST).href);
  const { createUserFetch } = await distChunk("user-fetch-");
  const options = { ...CLIENT_OPTIONS, baseUrl: BASE, fetch: memoryFetch };
  const sdk = new MerchantPaymentsClient(options);
  const traced = new MerchantPaymentsClient({ ...options, telemetry: true });
  const floor = ky.create({
    retry: 0,
    throwHttpErrors: false,
    redirect: "manual",
    fetch: createUserFetch(memoryFetch, { maxResponseBytes: 1_048_576 }),
  });
  const { bodyTextOf } = await loadAdapter();
  // The adapters hand their answer's text over beside the Response (src/core/wire/response.ts), as the SDK reads it.
  const parsed = (response) => JSON.parse(bodyTextOf(response));
  const statusUrl = `${BASE}/v1/payments/${PAYMENT_ID}/status`;
  const post = {
    method: "POST",
    headers: { ...HEADERS, "content-type": "application/json" },
    timeout: 30_000,
  };
  return {
    "GET status": {
      "ky floor": () => floor(statusUrl, { method: "GET", headers: HEADERS, timeout: 30_000 }).then(parsed),
      ...(checks && {
        "ky floor + checks": () =>
          floor(statusUrl, { method: "GET", headers: HEADERS, timeout: 30_000 })
            .then(parsed)
            .then(checks.readStatus),
      }),
      SDK: () => sdk.payments.status(PAYMENT_ID),
      "SDK, telemetry on (no-op providers)": () => traced.payments.status(PAYMENT_ID),
    },
    "POST create": {
      "ky floor": () =>
        floor(`${BASE}/v1/payments`, { ...post, body: JSON.stringify(CREATE_INPUT) }).then(parsed),
      ...(checks && {
        "ky floor + checks": () => {
          const { body, idempotencyKey } = checks.checkedCreate(CREATE_INPUT);
          const headers = { ...post.headers, "idempotency-key": idempotencyKey };
          return floor(`${BASE}/v1/payments`, { ...post, headers, body })
            .then(parsed)
            .then(checks.readCreated);
        },
      }),
      SDK: () => sdk.payments.create(CREATE_INPUT),
      "SDK, telemetry on (no-op providers)": () => traced.payments.create(CREATE_INPUT),
    },
  };
}

export async function measure({ rounds = 9, calls = 3000, allocationOnly = false } = {}) {
  requireDist();
  const groups = await variants({ withChecks: !allocationOnly });
  if (allocationOnly) return { node: process.version, allocation: await allocationOf(groups) };
  const results = {};
  for (const [operation, group] of Object.entries(groups)) {
    const samples = Object.fromEntries(Object.keys(group).map((name) => [name, []]));
    for (const run of Object.values(group)) for (let i = 0; i < calls / 2; i++) await run(); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const [name, run] of Object.entries(group)) {
        const cpu = process.cpuUsage();
        for (let i = 0; i < calls; i++) await run();
        const used = process.cpuUsage(cpu);
        samples[name].push((used.user + used.system) / calls);
      }
    }
    const floor = samples["ky floor"];
    results[operation] = {};
    // One variant at a time: a sample's heap growth must be its own calls' alone.
    for (const [name, values] of Object.entries(samples)) {
      results[operation][name] = {
        cpuUs: median(values),
        overFloorUs: median(values.map((value, i) => value - floor[i])),
        heapBytes: await allocatedPerCall(group[name]),
      };
    }
  }
  return { node: process.version, rounds, calls, results };
}

/** Heap allocated per call by each variant, after a warm-up: `{ operation: { variant: bytes } }`. */
async function allocationOf(groups) {
  const allocation = {};
  for (const [operation, group] of Object.entries(groups)) {
    allocation[operation] = {};
    for (const [name, run] of Object.entries(group)) {
      for (let i = 0; i < 5000; i++) await run(); // warm-up: until optimised code allocates what it will
      allocation[operation][name] = await allocatedPerCall(run);
    }
  }
  return allocation;
}

/** The allocation-only result as a table: heap allocated per call, and over the ky floor. */
function renderAllocation({ allocation }) {
  const rows = Object.entries(allocation).flatMap(([operation, byName]) =>
    Object.entries(byName).map(([name, bytes]) => [
      operation,
      name,
      fmt.kb(bytes),
      name === "ky floor" ? "" : signed(bytes - byName["ky floor"], fmt.kb),
    ]),
  );
  return table(
    ["operation", "variant (fetch answers from memory)", "heap allocated / call", "over the ky floor"],
    rows,
  );
}

export function render(result) {
  if (result.allocation) return renderAllocation(result);
  const { results } = result;
  const kb = (bytes) => (bytes === undefined ? "n/a" : fmt.kb(bytes));
  const rows = Object.entries(results).flatMap(([operation, byName]) =>
    Object.entries(byName).map(([name, { cpuUs, overFloorUs, heapBytes }]) => {
      const floorBytes = byName["ky floor"].heapBytes;
      const overFloorBytes =
        heapBytes === undefined || floorBytes === undefined ? undefined : heapBytes - floorBytes;
      return [
        operation,
        name,
        fmt.us(cpuUs),
        name === "ky floor" ? "" : signed(overFloorUs, fmt.us),
        kb(heapBytes),
        name === "ky floor" ? "" : signed(overFloorBytes, kb),
      ];
    }),
  );
  return table(
    [
      "operation",
      "variant (fetch answers from memory)",
      "client CPU / call",
      "over the ky floor",
      "heap allocated / call",
      "over the ky floor",
    ],
    rows,
  );
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  const result = await measure({
    rounds: Number(args.rounds ?? 9),
    calls: Number(args.calls ?? 3000),
    allocationOnly: Boolean(args["allocation-only"]),
  });
  process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : `${render(result)}\n`);
}

/** A difference with its sign: `+1.2 KB`, `-0.4 KB` (a variant below the floor reads as such). */
function signed(value, format) {
  return value < 0 ? `-${format(-value)}` : `+${format(value)}`;
}
