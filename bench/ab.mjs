// This build against an earlier one, side by side in one process: `payments.status()` and `payments.create()` of
// both builds (and the ky floor), without the network (a `fetch` answering from memory) and over loopback (the fixed
// server in its own process, sequential). Variants are interleaved within each round, and the new build's cost is
// read as the median of its per-round ratios to the old one's: the firmest way to see a change of a few µs on a
// shared machine. Copy the old build first: `cp -r dist .tmp/dist-base`, then change, `npm run build`, and run:
//
//   node bench/ab.mjs [--base=.tmp/dist-base] [--rounds=41] [--calls=300] [--seq=100] [--conc=1] [--memory-only] [--json]
//   node bench/ab.mjs --cold [--base=.tmp/dist-base] [--rounds=15]   (import + the first status(), fresh processes)
//
// Short samples and many rounds: on a shared machine a burst of load then spoils a few rounds, not a variant.
// `--conc=64` runs each sample's calls 64 at a time (the bench's c64 cells; over loopback, `--seq` calls per sample).
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  distChunk,
  fmt,
  isMain,
  median,
  parseArgs,
  requireDist,
  ROOT,
  runCalls,
  startChild,
  table,
} from "./lib/common.mjs";
import { CLIENT_OPTIONS, CREATE_INPUT, HEADERS, PAYMENT_ID } from "./lib/fixtures.mjs";
import { kyFloorOver } from "./lib/floors.mjs";
import { memoryFetch } from "./lib/status-body.mjs";

const MEMORY = "http://127.0.0.1:9";

async function clientsOf(dir, baseUrl, fetch) {
  const { MerchantPaymentsClient } = await import(pathToFileURL(join(dir, "index.js")).href);
  return new MerchantPaymentsClient({ ...CLIENT_OPTIONS, baseUrl, ...(fetch ? { fetch } : {}) });
}

async function groupsFor(baseDir, newDir, url, memory) {
  const adapter = memory
    ? (await distChunk("user-fetch-", newDir)).createUserFetch(memoryFetch, { maxResponseBytes: 1_048_576 })
    : (await distChunk("node-fetch-", newDir)).createNodeFetch({
        maxSockets: 32,
        maxResponseBytes: 1_048_576,
      });
  const { bodyTextOf } = await distChunk("node-fetch-", newDir);
  const floor = kyFloorOver(adapter);
  // dist/ holds two builds' chunks (the package's and its CLIs'): a text that is not there means the adapter and
  // bodyTextOf came from different ones, and the floor would skip its parse; that must fail, not measure less.
  const parsed = (response) => {
    const text = bodyTextOf(response);
    if (text === undefined) throw new Error("the adapter and bodyTextOf come from different chunks of dist/");
    return JSON.parse(text);
  };
  const oldSdk = await clientsOf(baseDir, url, memory ? memoryFetch : undefined);
  const newSdk = await clientsOf(newDir, url, memory ? memoryFetch : undefined);
  const post = {
    method: "POST",
    headers: { ...HEADERS, "content-type": "application/json" },
    timeout: 30_000,
  };
  const where = memory ? "memory" : "loopback";
  return {
    [`GET status, ${where}`]: {
      "ky floor": () =>
        floor(`${url}/v1/payments/${PAYMENT_ID}/status`, {
          method: "GET",
          headers: HEADERS,
          timeout: 30_000,
        }).then(parsed),
      old: () => oldSdk.payments.status(PAYMENT_ID),
      new: () => newSdk.payments.status(PAYMENT_ID),
    },
    [`POST create, ${where}`]: {
      "ky floor": () =>
        floor(`${url}/v1/payments`, { ...post, body: JSON.stringify(CREATE_INPUT) }).then(parsed),
      old: () => oldSdk.payments.create(CREATE_INPUT),
      new: () => newSdk.payments.create(CREATE_INPUT),
    },
  };
}

async function runGroup(group, rounds, calls, conc) {
  const names = Object.keys(group);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (const run of Object.values(group)) await runCalls(run, calls / 2, conc); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + round) % names.length];
      const cpu = process.cpuUsage();
      await runCalls(group[name], calls, conc);
      const used = process.cpuUsage(cpu);
      samples[name].push((used.user + used.system) / calls);
    }
  }
  const ratio = (a, b) => median(samples[a].map((value, i) => value / samples[b][i]));
  const over = (a) => median(samples[a].map((value, i) => value - samples["ky floor"][i]));
  return {
    floorUs: median(samples["ky floor"]),
    oldUs: median(samples.old),
    newUs: median(samples.new),
    oldOverFloorUs: over("old"),
    newOverFloorUs: over("new"),
    newToOld: ratio("new", "old"),
    oldToFloor: ratio("old", "ky floor"),
    newToFloor: ratio("new", "ky floor"),
  };
}

export async function measure({ base, rounds = 41, calls = 300, seq = 100, conc = 1, memoryOnly = false }) {
  requireDist();
  const newDir = join(ROOT, "dist");
  const server = await startChild(new URL("./lib/fixed-server.mjs", import.meta.url).pathname);
  try {
    const results = {};
    for (const memory of memoryOnly ? [true] : [true, false]) {
      const groups = await groupsFor(base, newDir, memory ? MEMORY : server.url, memory);
      for (const [name, group] of Object.entries(groups)) {
        results[name] = await runGroup(group, rounds, memory ? calls : seq, conc);
      }
    }
    return { node: process.version, rounds, calls, seq, conc, results };
  } finally {
    await server.stop();
  }
}

/** In-process time of import + a new client + its first `status()`, in a fresh process, for the build in `dir`. */
function coldSample(dir, url) {
  const code = [
    "const t = performance.now();",
    `const { MerchantPaymentsClient } = await import(${JSON.stringify(pathToFileURL(join(dir, "index.js")).href)});`,
    `const client = new MerchantPaymentsClient({ ...${JSON.stringify(CLIENT_OPTIONS)}, baseUrl: ${JSON.stringify(url)} });`,
    `await client.payments.status(${JSON.stringify(PAYMENT_ID)});`,
    "process.stdout.write(String(performance.now() - t));",
  ].join("\n");
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return Number(run.stdout);
}

/** The first call of both builds, fresh processes alternating (the order swapped every round). */
export async function measureCold({ base, rounds = 15 }) {
  requireDist();
  const server = await startChild(new URL("./lib/fixed-server.mjs", import.meta.url).pathname);
  try {
    const dirs = { old: base, new: join(ROOT, "dist") };
    for (const dir of Object.values(dirs)) coldSample(dir, server.url); // warm the file-system cache
    const samples = { old: [], new: [] };
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 ? ["new", "old"] : ["old", "new"]) {
        samples[name].push(coldSample(dirs[name], server.url));
      }
    }
    return {
      node: process.version,
      rounds,
      oldMs: median(samples.old),
      newMs: median(samples.new),
      newToOld: median(samples.new.map((value, i) => value / samples.old[i])),
    };
  } finally {
    await server.stop();
  }
}

export function render({ node, rounds, conc, results }) {
  const rows = Object.entries(results).map(([name, r]) => [
    name,
    fmt.us(r.floorUs),
    `${fmt.us(r.oldUs)} (+${fmt.us(r.oldOverFloorUs)})`,
    `${fmt.us(r.newUs)} (+${fmt.us(r.newOverFloorUs)})`,
    fmt.ratio(r.newToOld),
    `${fmt.ratio(r.oldToFloor)} → ${fmt.ratio(r.newToFloor)}`,
  ]);
  return `${table(
    [
      "call",
      "ky floor",
      "old build (over floor)",
      "new build (over floor)",
      "new ÷ old",
      "÷ ky floor, old → new",
    ],
    rows,
  )}\n\nNode ${node}, ${rounds} rounds, ${conc > 1 ? `${conc} calls at a time` : "one call at a time"}, client CPU per call, medians of per-round values`;
}

if (isMain(import.meta.url) && parseArgs().cold) {
  const args = parseArgs();
  const cold = await measureCold({
    base: resolve(ROOT, String(args.base ?? ".tmp/dist-base")),
    rounds: Number(args.rounds ?? 15),
  });
  process.stdout.write(
    args.json
      ? `${JSON.stringify(cold)}\n`
      : `import + first status(), in process: old ${fmt.ms(cold.oldMs)}, new ${fmt.ms(cold.newMs)}, new ÷ old ${fmt.ratio(cold.newToOld)} (Node ${cold.node}, ${cold.rounds} rounds)\n`,
  );
} else if (isMain(import.meta.url)) {
  const args = parseArgs();
  const result = await measure({
    base: resolve(ROOT, String(args.base ?? ".tmp/dist-base")),
    rounds: Number(args.rounds ?? 41),
    calls: Number(args.calls ?? 300),
    seq: Number(args.seq ?? 100),
    conc: Number(args.conc ?? 1),
    memoryOnly: Boolean(args["memory-only"]),
  });
  process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : `${render(result)}\n`);
}
