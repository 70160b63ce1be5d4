// Where the SDK's per-request overhead goes, compared with raw fetch.
//
// 1. Steps (default): the SDK and its building blocks with a fake `fetch` that answers at once from memory, so
//    the network and the server are out of the picture and only client-side CPU remains; each step is timed in a
//    tight loop (median of rounds).
// 2. CPU profile (`--cpu`): the SDK and the floor (`fetch(url, init).then(r => r.json())`), each looped at
//    concurrency 64 under `node --cpu-prof`; self time is grouped by where the code lives (ky, undici/fetch
//    internals, zod, SDK, …) and divided by the number of requests. By default both use the in-memory fake fetch
//    (only client-side CPU, stable on a busy machine); `--network` uses real fetch over loopback to the fixed
//    server instead (the sampling profiler counts wall time, so that view is only meaningful on a quiet machine).
//
//   node bench/profile.mjs [--cpu [--network]] [--json]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ky from "ky";
import * as z from "zod/mini";
import { DIST, fmt, isMain, median, parseArgs, requireDist, startChild, table } from "./lib/common.mjs";
import {
  ANSWER_HEADERS,
  API_KEY,
  CLIENT_OPTIONS,
  HEADERS,
  MERCHANT_ID,
  PAYMENT_ID,
} from "./lib/fixtures.mjs";
import { STATUS_BODY } from "./lib/status-body.mjs";

const BASE = "http://127.0.0.1:9";
const URL_STATUS = `${BASE}/v1/payments/${PAYMENT_ID}/status`;
const CREATE_JSON = JSON.stringify({
  referenceId: "order-0000042",
  amount: { unit: "iso4217/USD", value: "1999" },
});
/** Answers from memory, but builds the Request that real fetch builds from its arguments (its first cost). */
const fakeFetch = async (input, init) => {
  new Request(input, init);
  return new Response(STATUS_BODY, { status: 200, headers: ANSWER_HEADERS });
};

async function timeLoop(fn, iterations) {
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  return ((performance.now() - start) * 1000) / iterations;
}

export async function steps({ rounds = 5, iterations = 3000 } = {}) {
  requireDist();
  const { MerchantPaymentsClient } = await import(DIST);
  const client = new MerchantPaymentsClient({ ...CLIENT_OPTIONS, baseUrl: BASE, fetch: fakeFetch });
  // As core/http.ts calls ky: retry 0, the attempt's deadline as ky's timeout, no signal unless the caller gave one.
  const kyLikeSdk = ky.create({ retry: 0, throwHttpErrors: false, redirect: "manual", fetch: fakeFetch });
  const kyPlain = ky.create({ fetch: fakeFetch });
  const schema = z.looseObject({ status: z.string(), isFinal: z.boolean() });
  const parsed = JSON.parse(STATUS_BODY);
  const parent = new AbortController();
  const cases = {
    "fake fetch + res.json() (floor)": () =>
      fakeFetch(URL_STATUS, { headers: HEADERS }).then((r) => r.json()),
    "SDK payments.status() (fake fetch)": () => client.payments.status(PAYMENT_ID),
    "ky as the SDK calls it + text() (fake fetch)": () =>
      kyLikeSdk(URL_STATUS, { method: "GET", headers: HEADERS, timeout: 30_000 }).then((r) => r.text()),
    "… with a caller's signal (ky adds AbortSignal.any)": () =>
      kyLikeSdk(URL_STATUS, { method: "GET", headers: HEADERS, timeout: 30_000, signal: parent.signal }).then(
        (r) => r.text(),
      ),
    "plain ky .json() (fake fetch)": () => kyPlain.get(URL_STATUS, { headers: HEADERS }).json(),
    "new Response(body) + text()": () => new Response(STATUS_BODY, { headers: ANSWER_HEADERS }).text(),
    "new Request(url, { headers })": () => new Request(URL_STATUS, { headers: HEADERS }),
    "new Request(url, { headers, signal })": () =>
      new Request(URL_STATUS, { headers: HEADERS, signal: new AbortController().signal }),
    "new Request(url, { headers }) + .clone()": () => new Request(URL_STATUS, { headers: HEADERS }).clone(),
    "new Request(new Request(url, { headers })) (fetch(Request) copies it)": () =>
      new Request(new Request(URL_STATUS, { headers: HEADERS })),
    "new Request(url, { method: POST, body, headers })": () =>
      new Request(URL_STATUS, { method: "POST", headers: HEADERS, body: CREATE_JSON }),
    "… + .clone() (POST: tees the body stream)": () =>
      new Request(URL_STATUS, { method: "POST", headers: HEADERS, body: CREATE_JSON }).clone(),
    "new Headers(object)": () => new Headers(HEADERS),
    "AbortSignal.any([a, b])": () => AbortSignal.any([parent.signal, new AbortController().signal]),
    "new AbortController + setTimeout + clearTimeout": () => {
      const c = new AbortController();
      clearTimeout(setTimeout(() => c.abort(), 30_000));
    },
    "JSON.parse(status body)": () => JSON.parse(STATUS_BODY),
    "zod/mini parse (loose object)": () => z.safeParse(schema, parsed),
    "crypto.randomUUID() (idempotency key)": () => crypto.randomUUID(),
  };
  const names = Object.keys(cases);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (const name of names) await timeLoop(cases[name], iterations / 3); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const name of names) samples[name].push(await timeLoop(cases[name], iterations));
  }
  return names.map((name) => ({ name, us: median(samples[name]) }));
}

// ---- CPU profile -----------------------------------------------------------------------------------------------

const CATEGORIES = [
  // ky and zod load from node_modules (the build never inlines them); the SDK is dist/index.js and its chunks.
  ["ky", /node_modules\/ky\//],
  ["zod", /node_modules\/zod\//],
  ["SDK (dist/)", /\/dist\//],
  ["undici / fetch (node:internal/deps/undici)", /internal\/deps\/undici/],
  ["web streams", /internal\/webstreams/],
  ["AbortSignal / EventTarget", /internal\/(abort_controller|event_target)/],
  ["timers", /internal\/timers|^timers$/],
  ["net / http parser / streams", /internal\/(stream_base_commons|streams|net|http)|^net$|^stream$/],
  ["url / webidl / util", /internal\/(url|webidl|util)/],
  ["bench loop", /bench\/profile\.mjs/],
];

function categorise(url, functionName) {
  if (!url) {
    if (functionName === "(garbage collector)") return "GC";
    if (functionName === "(idle)" || functionName === "(program)") return functionName;
    return "native / builtins";
  }
  for (const [name, pattern] of CATEGORIES) if (pattern.test(url)) return name;
  if (url.startsWith("node:")) return "other node internals";
  return "other";
}

function summarise(profilePath) {
  const profile = JSON.parse(readFileSync(profilePath, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const dt = deltas[i + 1] ?? 0;
    selfUs.set(node.id, (selfUs.get(node.id) ?? 0) + dt);
  }
  const categories = {};
  const functions = {};
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    const category = categorise(callFrame.url, callFrame.functionName);
    categories[category] = (categories[category] ?? 0) + us;
    const key = `${callFrame.functionName || "(anonymous)"} ${callFrame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/dist\//, "dist/")}:${callFrame.lineNumber + 1}`;
    functions[key] = (functions[key] ?? 0) + us;
  }
  return { categories, functions };
}

async function loop(variant, seconds, network) {
  const server = network
    ? await startChild(fileURLToPath(new URL("./lib/fixed-server.mjs", import.meta.url)))
    : { url: BASE, stop: async () => {} };
  const { MerchantPaymentsClient } = await import(DIST);
  const client = new MerchantPaymentsClient({
    ...(network ? {} : { fetch: fakeFetch }),
    apiKey: API_KEY,
    baseUrl: server.url,
    merchantId: MERCHANT_ID,
    versionHeader: "Mock-Version",
    apiVersion: "2026-02-19.preview",
  });
  const url = `${server.url}/v1/payments/${PAYMENT_ID}/status`;
  const call =
    variant === "sdk"
      ? () => client.payments.status(PAYMENT_ID)
      : () => (network ? fetch : fakeFetch)(url, { headers: HEADERS }).then((r) => r.json());
  let count = 0;
  const run = async (ms) => {
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (performance.now() < end) {
          await call();
          count++;
        }
      }),
    );
  };
  await run(500);
  const warmUp = count;
  const start = performance.now();
  await run(seconds * 1000);
  const elapsed = performance.now() - start;
  await server.stop();
  // The profile covers the warm-up too: its self times are divided by `count`, the wall by `measured`.
  process.stdout.write(`${JSON.stringify({ count, measured: count - warmUp, elapsedMs: elapsed })}\n`);
}

export function cpuProfiles({ seconds = 4, network = false } = {}) {
  requireDist();
  const results = {};
  for (const variant of ["fetch", "sdk"]) {
    const dir = mkdtempSync(join(tmpdir(), `mp-prof-${variant}-`));
    const run = spawnSync(
      process.execPath,
      [
        "--cpu-prof",
        `--cpu-prof-dir=${dir}`,
        fileURLToPath(import.meta.url),
        `--loop=${variant}`,
        `--seconds=${seconds}`,
        ...(network ? ["--network"] : []),
      ],
      { encoding: "utf8" },
    );
    if (run.status !== 0) throw new Error(run.stderr);
    const { count, measured, elapsedMs } = JSON.parse(run.stdout.trim().split("\n").at(-1));
    const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
    results[variant] = {
      count,
      measured,
      elapsedMs,
      profile: join(dir, file),
      ...summarise(join(dir, file)),
    };
  }
  return results;
}

export function renderCpu(results) {
  const names = new Set([...Object.keys(results.fetch.categories), ...Object.keys(results.sdk.categories)]);
  names.delete("(idle)");
  const per = (variant, name) => (results[variant].categories[name] ?? 0) / results[variant].count;
  const rows = [...names]
    .sort((a, b) => per("sdk", b) - per("sdk", a))
    .map((name) => [
      name,
      fmt.us(per("fetch", name)),
      fmt.us(per("sdk", name)),
      fmt.us(per("sdk", name) - per("fetch", name)),
    ]);
  const total = (v) => [...names].reduce((sum, n) => sum + per(v, n), 0);
  rows.push([
    "total CPU (idle excluded)",
    fmt.us(total("fetch")),
    fmt.us(total("sdk")),
    fmt.us(total("sdk") - total("fetch")),
  ]);
  rows.push([
    "wall per request (c64, under the profiler)",
    fmt.us((results.fetch.elapsedMs * 1000) / results.fetch.measured),
    fmt.us((results.sdk.elapsedMs * 1000) / results.sdk.measured),
    "",
  ]);
  const top = (variant, n) =>
    Object.entries(results[variant].functions)
      .filter(([name]) => !name.startsWith("(idle)"))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => [name, fmt.us(us / results[variant].count)]);
  return [
    table(["self time per request", "raw fetch", "SDK status()", "SDK − fetch"], rows),
    table(["top SDK self time (function location)", "per request"], top("sdk", 30)),
    table(["top raw-fetch self time (function location)", "per request"], top("fetch", 12)),
    `profiles: ${results.fetch.profile} ${results.sdk.profile} (open in Chrome DevTools)`,
  ].join("\n\n");
}

export function renderSteps(results) {
  return table(
    ["step (no network; fake fetch answers from memory)", "per call"],
    results.map((r) => [r.name, fmt.us(r.us)]),
  );
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  if (args.loop) {
    await loop(args.loop, Number(args.seconds ?? 4), Boolean(args.network));
  } else if (args.cpu) {
    const results = cpuProfiles({ seconds: Number(args.seconds ?? 4), network: Boolean(args.network) });
    process.stdout.write(args.json ? `${JSON.stringify(results)}\n` : `${renderCpu(results)}\n`);
  } else {
    const results = await steps();
    process.stdout.write(args.json ? `${JSON.stringify(results)}\n` : `${renderSteps(results)}\n`);
  }
}
