// Per-request cost of the SDK against raw fetch, undici.request, openai-node and stripe-node, over a keep-alive
// HTTP server on 127.0.0.1 that runs in a child process (the client process is measured alone). Every variant
// is given the same headers (stripe-node sends its POST form-encoded, its own format); what each adds to them shows
// in the "request head" column: the bytes of its request line and headers, as a raw TCP server receives them
// (lib/header-bytes.mjs, counted once before the timing). Each sample measures wall
// time and the client's CPU time (`process.cpuUsage`, user + system) per request. Variants run one after another in
// an order shuffled each round, so that drift hits them alike and no variant always follows the same one (the one
// before moves a sample: Node 22's status after stripe-node read 1.00× to 1.45× of the floor, right after the floor
// 0.86× to 0.98×; RESULTS.md, nineteenth pass); the result is the median over rounds
// of each variant's µs/request, and the median over rounds of its ratio to raw fetch measured in the same round,
// with the interquartile range of that ratio. After the rounds, the "heap / request" column: the JS heap one
// sequential request allocates, garbage included (lib/common.mjs, `allocatedPerCall`), which repeats from run to run
// where CPU time on a shared machine does not.
//
// "ky floor" and "ky floor + checks" are lib/floors.mjs's (shared with instructions.mjs): ky 2 over the SDK's own
// pooled adapter with the SDK's ky options, the request layer alone; and the floor plus only what each call promises
// (lib/checks.mjs). The SDK's distance to the first is what the SDK adds; to the second, its own machinery.
//
// A sample is long enough to hold several collections of the young generation (Node 22 scavenges about every 13 MB
// of allocation; a create allocates about 65 KB): how many fall inside it then follows the variant's own allocation.
// With 200 sequential calls a sample held none or one, and which was decided by what the variant before it had left
// alive in the young generation (the order was cyclic): the floor, after `ky .json()`, started with 0.5 MB there and
// scavenged in 1 sample of 15, the floor + checks, after the floor, with 2 MB and in 13 of 15, at 2.5 ms a scavenge
// (`--trace-gc`): 1.26× the floor for work that costs 0.96× to 1.04× of it in 1,000-call samples (RESULTS.md,
// nineteenth pass). Node 24's young generation is four times larger: a sample holds one.
//
// `--processes=N` splits the rounds among N fresh processes and pools their samples. A process's V8 state (what it
// compiled its shared code for, what it pretenured) can move one cell for all of its rounds: on Node 22, with every
// client in the process, the SDK's sequential status call read 1.16× the floor in one process of 15 rounds and 1.01×
// to 1.09× in four of 5 (the control, the floor + checks, 1.00× to 1.05× in each), and alone in a process it costs
// 0.93× of the floor alone. Pooled, one such process moves a median less than it makes it.
//
//   node --expose-gc bench/http.mjs [--rounds=7] [--processes=1] [--seq=1000] [--conc=2048]
//     [--variants=fetch,ky floor,SDK] [--json]
//   (--variants keeps the variants whose name starts with one of the given prefixes; fetch is always kept)
import ky from "ky";
import OpenAI from "openai";
import Stripe from "stripe";
import { request as undiciRequest } from "undici";
import * as z from "zod/mini";
import { statusSchema } from "./lib/checks.mjs";
import {
  allocatedPerCall,
  fmt,
  isMain,
  median,
  OPTIMISED_AFTER,
  parseArgs,
  requireDist,
  runCalls,
  runJson,
  startChild,
  table,
} from "./lib/common.mjs";
import { API_KEY, CREATE_INPUT, HEADERS, PAYMENT_ID } from "./lib/fixtures.mjs";
import { CHECKED_FLOOR, FLOOR, SDK_GET, SDK_POST, sdkAndFloors } from "./lib/floors.mjs";
import { requestHeadBytes } from "./lib/header-bytes.mjs";

const CONCURRENCY = 64;
export { CHECKED_FLOOR, FLOOR };

const POST_HEADERS = { ...HEADERS, "content-type": "application/json" };

export async function variants(url) {
  const own = await sdkAndFloors(url);
  const openai = new OpenAI({ apiKey: API_KEY, baseURL: url, maxRetries: 2, timeout: 30_000 });
  const { hostname, port } = new URL(url);
  const stripe = new Stripe(API_KEY, { host: hostname, port, protocol: "http", maxNetworkRetries: 2 });
  const statusPath = `/v1/payments/${PAYMENT_ID}/status`;
  const statusUrl = `${url}${statusPath}`;
  const createUrl = `${url}/v1/payments`;
  const check = (value) => {
    if (value?.status === undefined && value?.id === undefined) throw new Error("unexpected answer");
  };
  return {
    get: {
      fetch: () => fetch(statusUrl, { headers: HEADERS }).then((res) => res.json()),
      "undici.request": () => undiciRequest(statusUrl, { headers: HEADERS }).then((res) => res.body.json()),
      "ky .json()": () => ky.get(statusUrl, { headers: HEADERS }).json(),
      [FLOOR]: own.get[FLOOR],
      [CHECKED_FLOOR]: own.get[CHECKED_FLOOR],
      "fetch + zod": () =>
        fetch(statusUrl, { headers: HEADERS })
          .then((res) => res.json())
          .then((json) => z.parse(statusSchema, json)),
      "openai-node .get()": () => openai.get(statusPath, { headers: HEADERS }),
      "stripe-node rawRequest": () =>
        stripe.rawRequest("GET", statusPath, null, { additionalHeaders: HEADERS }),
      [SDK_GET]: own.get[SDK_GET],
    },
    post: {
      fetch: () =>
        fetch(createUrl, { method: "POST", headers: POST_HEADERS, body: JSON.stringify(CREATE_INPUT) }).then(
          (res) => res.json(),
        ),
      "undici.request": () =>
        undiciRequest(createUrl, {
          method: "POST",
          headers: POST_HEADERS,
          body: JSON.stringify(CREATE_INPUT),
        }).then((res) => res.body.json()),
      "ky .json()": () => ky.post(createUrl, { headers: HEADERS, json: CREATE_INPUT }).json(),
      [FLOOR]: own.post[FLOOR],
      [CHECKED_FLOOR]: own.post[CHECKED_FLOOR],
      "openai-node .post()": () => openai.post("/v1/payments", { headers: HEADERS, body: CREATE_INPUT }),
      "stripe-node rawRequest": () =>
        stripe.rawRequest("POST", "/v1/payments", CREATE_INPUT, { additionalHeaders: HEADERS }),
      [SDK_POST]: own.post[SDK_POST],
    },
    check,
  };
}

/**
 * Wall and client CPU time (user + system; user alone beside it), in µs per request, of `n` requests made by `send`.
 * The system time is mostly the kernel sending and receiving the same bytes over loopback for every variant, the
 * receiving side's processing included (it runs in the sender's system call), and it moves with how the two processes
 * are scheduled: the user time is the client's code alone.
 */
async function timed(send, n) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await send();
  const wall = (performance.now() - start) * 1000;
  const used = process.cpuUsage(cpu);
  return { wall: wall / n, cpu: (used.user + used.system) / n, user: used.user / n };
}

function sequential(call, n) {
  return timed(() => runCalls(call, n), n);
}

function concurrent(call, n) {
  return timed(() => runCalls(call, n, CONCURRENCY), n);
}

/**
 * `names` in an order drawn for `round` (a small seeded generator, mulberry32, offset by the process id so that the
 * processes of `--processes` draw different orders).
 */
function shuffled(names, round) {
  let state = (round * 7919 + process.pid) | 0;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = [...names];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** Median and interquartile range of a variant's per-round ratio to fetch. */
function ratios(samples, base) {
  const values = samples.map((s, i) => s / base[i]).sort((a, b) => a - b);
  const at = (q) => values[Math.min(values.length - 1, Math.floor(q * values.length))];
  return { median: median(values), p25: at(0.25), p75: at(0.75) };
}

/** Runs every (method, mode, variant) block, each round in a shuffled order, and returns medians. */
export async function measure({ rounds = 7, seq = 1000, conc = 2048, only, log = () => {} } = {}) {
  requireDist();
  const server = await startChild(new URL("./lib/fixed-server.mjs", import.meta.url).pathname);
  try {
    const headBytes = await requestHeadBytes(variants);
    const v = await variants(server.url);
    for (const group of [v.get, v.post]) for (const call of Object.values(group)) v.check(await call());
    const blocks = [];
    for (const [method, group] of [
      ["GET status", v.get],
      ["POST create", v.post],
    ]) {
      for (const [mode, run, n] of [
        ["sequential", sequential, seq],
        [`concurrency ${CONCURRENCY}`, concurrent, conc],
      ]) {
        const names = Object.keys(group).filter(
          (name) =>
            name === "fetch" ||
            name.startsWith(FLOOR) ||
            !only ||
            only.some((prefix) => name.startsWith(prefix)),
        );
        const samples = Object.fromEntries(names.map((name) => [name, []]));
        blocks.push({ method, mode, run, n, names, calls: group, samples });
      }
    }
    // Warm-up: connection pools (64 sockets per client library), and every variant's code optimised: the sequential
    // and the concurrent block of an operation share its calls, so each makes half of OPTIMISED_AFTER (at least).
    for (const block of blocks)
      for (const name of block.names)
        await block.run(block.calls[name], Math.max(block.n / 2, OPTIMISED_AFTER / 2));
    for (let round = 0; round < rounds; round++) {
      for (const block of blocks) {
        const order = shuffled(block.names, round);
        const sample = {};
        for (const name of order) {
          // The young generation emptied, so that no variant's garbage is scavenged in another's sample. Not a full
          // collection: V8 then deoptimises the optimised code that embeds an object it finds dead ("weak objects":
          // 1,433 deoptimisations in ten forced full collections of a ky floor's creates, 43 without), and the sample
          // measured mostly re-optimisation, three times a warm call's CPU (bench/RESULTS.md, eighteenth pass).
          globalThis.gc?.({ type: "minor" });
          sample[name] = await block.run(block.calls[name], block.n);
        }
        for (const name of block.names) block.samples[name].push(sample[name]);
      }
      log(`http round ${round + 1}/${rounds}`);
    }
    // After the rounds, so that every client's code is as warm as it gets: heap per request, one at a time.
    const heapBytes = {};
    for (const block of blocks.filter((b) => b.run === sequential)) {
      heapBytes[block.method] = {};
      for (const name of block.names)
        heapBytes[block.method][name] = await allocatedPerCall(block.calls[name]);
    }
    return blocks.map((block) =>
      summarized({
        node: process.version,
        method: block.method,
        mode: block.mode,
        requestsPerSample: block.n,
        rounds,
        variants: block.names.map((name) => ({
          name,
          headerBytes: headBytes[block.method.startsWith("GET") ? "get" : "post"][name],
          heapBytes: block.run === sequential ? heapBytes[block.method][name] : undefined,
          samples: block.samples[name],
        })),
      }),
    );
  } finally {
    await server.stop();
  }
}

/** A block with each variant's medians and ratios, from its samples (round `i` of every variant in one process). */
function summarized(block) {
  const samplesOf = (name) => block.variants.find((variant) => variant.name === name).samples;
  const wallOf = (name) => samplesOf(name).map((s) => s.wall);
  const cpuOf = (name) => samplesOf(name).map((s) => s.cpu);
  return {
    ...block,
    variants: block.variants.map((variant) => {
      const wall = ratios(wallOf(variant.name), wallOf("fetch"));
      const cpu = ratios(cpuOf(variant.name), cpuOf("fetch"));
      const toFloor = ratios(cpuOf(variant.name), cpuOf(FLOOR));
      const userOf = (name) => samplesOf(name).map((s) => s.user);
      const userToFloor = ratios(userOf(variant.name), userOf(FLOOR));
      return {
        ...variant,
        us: median(wallOf(variant.name)),
        ratioToFetch: wall.median,
        ratioRange: [wall.p25, wall.p75],
        cpuUs: median(cpuOf(variant.name)),
        cpuRatioToFetch: cpu.median,
        cpuRatioRange: [cpu.p25, cpu.p75],
        cpuRatioToFloor: toFloor.median,
        cpuRatioToFloorRange: [toFloor.p25, toFloor.p75],
        userRatioToFloor: userToFloor.median,
        userRatioToFloorRange: [userToFloor.p25, userToFloor.p75],
      };
    }),
  };
}

/**
 * The rounds of several processes as one run: each variant's samples, process after process, so that sample `i` of
 * every variant still comes from one round of one process; a variant's heap per request is its median.
 */
export function pooled(runs) {
  return runs[0].map((first, index) =>
    summarized({
      ...first,
      rounds: runs.reduce((sum, run) => sum + run[index].rounds, 0),
      processes: runs.length,
      variants: first.variants.map((variant, at) => {
        const each = runs.map((run) => run[index].variants[at]);
        const heaps = each.map((v) => v.heapBytes).filter((bytes) => bytes !== undefined);
        return {
          name: variant.name,
          headerBytes: variant.headerBytes,
          heapBytes: heaps.length === 0 ? undefined : median(heaps),
          samples: each.flatMap((v) => v.samples),
        };
      }),
    }),
  );
}

/** `processes` fresh processes of this script, `rounds` split among them, pooled (see the header). */
async function measureInProcesses(processes, { rounds, seq, conc, variants: only, log }) {
  const runs = [];
  const script = new URL(import.meta.url).pathname;
  for (let i = 0; i < processes; i++) {
    const share = Math.ceil((rounds - runs.reduce((sum, run) => sum + run[0].rounds, 0)) / (processes - i));
    const args = [`--rounds=${share}`, `--seq=${seq}`, `--conc=${conc}`, "--json"];
    if (only) args.push(`--variants=${only}`);
    runs.push(await runJson(script, args, process.execArgv));
    log(`http process ${i + 1}/${processes}`);
  }
  return pooled(runs);
}

const range = ([low, high]) => `[${low.toFixed(2)}–${high.toFixed(2)}]`;

export function render(results) {
  const rows = [];
  for (const block of results) {
    for (const variant of block.variants) {
      rows.push([
        block.method,
        block.mode,
        variant.name,
        fmt.bytes(variant.headerBytes),
        variant.heapBytes === undefined ? "" : fmt.kb(variant.heapBytes),
        fmt.us(variant.us),
        `${fmt.ratio(variant.ratioToFetch)} ${range(variant.ratioRange)}`,
        fmt.us(variant.cpuUs),
        `${fmt.ratio(variant.cpuRatioToFetch)} ${range(variant.cpuRatioRange)}`,
        `${fmt.ratio(variant.cpuRatioToFloor)} ${range(variant.cpuRatioToFloorRange)}`,
        `${fmt.ratio(variant.userRatioToFloor)} ${range(variant.userRatioToFloorRange)}`,
      ]);
    }
  }
  const rounds = results[0]?.rounds ?? 0;
  const processes = results[0]?.processes ?? 1;
  return `${table(
    [
      "operation",
      "mode",
      "variant",
      "request head",
      "heap / request",
      "wall / request",
      "wall vs fetch",
      "client CPU / request",
      "CPU vs fetch",
      "CPU vs ky floor",
      "user CPU vs ky floor",
    ],
    rows,
  )}\n\nRatios: median [p25–p75] over ${rounds} interleaved rounds${processes > 1 ? ` in ${processes} processes` : ""}, each against fetch (or the ky floor) in the same round. Heap: bytes of JS heap one sequential request allocates, garbage included (bench/lib/common.mjs, allocatedPerCall).`;
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  const options = {
    rounds: Number(args.rounds ?? 7),
    seq: Number(args.seq ?? 1000),
    conc: Number(args.conc ?? 2048),
    variants: typeof args.variants === "string" ? args.variants : undefined,
    log: (line) => process.stderr.write(`${line}\n`),
  };
  const processes = Number(args.processes ?? 1);
  const results =
    processes > 1
      ? await measureInProcesses(processes, options)
      : await measure({ ...options, only: options.variants?.split(",") });
  process.stdout.write(args.json ? `${JSON.stringify(results)}\n` : `${render(results)}\n`);
}
