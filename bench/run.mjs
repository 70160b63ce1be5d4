// `npm run bench`: every measurement of issue #6 on the built package, each section in its own Node process (so
// heaps and JIT state do not leak between sections), printed as tables with the targets and budgets.
// Within a section, variants are interleaved round-robin and medians are reported (see each script).
//
// The HTTP section runs once per Node major of `--nodes` (default 22 and 24, the binaries from the npm registry's
// `node` package, installed into .tmp/node-<major> on first use), giving the Node 22 and 24 columns; the other
// sections run on the Node that runs this script.
//
//   node bench/run.mjs [--quick] [--rounds=N] [--only=http,own,layers,import,bundle,polling,watchers,loopback,mock] [--nodes=22,24]
//                      [--json=out.json]
//
// `--only=instructions` adds the instruction count (instructions.mjs: valgrind, 15 to 20 minutes for both Nodes),
// which a run without `--only` leaves out.
import { writeFileSync } from "node:fs";
import { render as renderBundle } from "./bundle.mjs";
import { render as renderImport } from "./cold-import.mjs";
import { render as renderInstructions } from "./instructions.mjs";
import { FLOOR, render as renderHttp } from "./http.mjs";
import { render as renderLayers } from "./layers.mjs";
import { fmt, nodeBinary, parseArgs, requireDist, runJson, table } from "./lib/common.mjs";
import { render as renderOwnWork } from "./own-work.mjs";
import { render as renderPolling } from "./polling.mjs";
import { render as renderMock } from "./throughput.mjs";
import { render as renderWatchers } from "./watchers.mjs";
import { render as renderLoopback } from "./watchers-loopback.mjs";

const args = parseArgs();
const quick = Boolean(args.quick);
/** `--rounds=N`: the rounds of the HTTP, own-work and cold-start sections (a shorter full run on a busy machine). */
const rounds = typeof args.rounds === "string" ? Number(args.rounds) : undefined;
const only = typeof args.only === "string" ? new Set(args.only.split(",")) : undefined;
const script = (name) => new URL(`./${name}`, import.meta.url).pathname;
const nodes = String(args.nodes ?? "22,24").split(",");
/** Sections run once per Node major: their results are keyed by major. */
const PER_NODE = new Set(["http", "own"]);
/** Sections run only when `--only` names them. */
const ON_REQUEST = new Set(["instructions"]);

const SECTIONS = [
  ["bundle", "Bundle size (esbuild, minified + gzip -9; 1 KB = 1000 B)", "bundle.mjs", [], [], renderBundle],
  [
    "http",
    "Per request over loopback (server in its own process)",
    "http.mjs",
    quick
      ? ["--rounds=3", "--seq=100", "--conc=512"]
      : [`--rounds=${rounds ?? 15}`, "--processes=3", "--seq=1000", "--conc=1024"],
    ["--expose-gc"],
    renderHttp,
  ],
  [
    "own",
    "The SDK's own work per call, without the network (fetch answers from memory)",
    "own-work.mjs",
    quick ? ["--rounds=3", "--calls=1000"] : [`--rounds=${rounds ?? 9}`, "--calls=3000"],
    [],
    renderOwnWork,
  ],
  [
    "layers",
    "Where a status call's client CPU goes, layer by layer (loopback)",
    "layers.mjs",
    quick ? ["--rounds=3", "--calls=500"] : ["--rounds=7", "--calls=2000"],
    [],
    renderLayers,
  ],
  [
    "import",
    "Cold start: import, and import + the first call (fresh process each sample)",
    "cold-import.mjs",
    [quick ? "--rounds=3" : `--rounds=${rounds ?? 11}`],
    [],
    renderImport,
  ],
  [
    "instructions",
    "Instructions per request over loopback (valgrind, a count that does not move with the host)",
    "instructions.mjs",
    [`--nodes=${nodes.join(",")}`],
    [],
    renderInstructions,
  ],
  ["polling", "waitForFinal efficiency (mock server over loopback)", "polling.mjs", [], [], renderPolling],
  [
    "watchers",
    "Concurrent watchers (in-process mock)",
    "watchers.mjs",
    [quick ? "--watchers=2000" : "--watchers=10000"],
    ["--expose-gc"],
    renderWatchers,
  ],
  [
    "loopback",
    "Concurrent watchers over loopback HTTP (mock server on 127.0.0.1 in its own process, sockets counted)",
    "watchers-loopback.mjs",
    [quick ? "--watchers=1000" : "--watchers=10000"],
    [],
    renderLoopback,
  ],
  [
    "mock",
    "Mock server throughput (loopback, undici.request at concurrency 64)",
    "throughput.mjs",
    [quick ? "--seconds=1" : "--seconds=3"],
    [],
    renderMock,
  ],
];

requireDist();
const started = performance.now();
const results = {};
for (const [key, title, file, sectionArgs, nodeFlags, render] of SECTIONS) {
  if (only ? !only.has(key) : ON_REQUEST.has(key)) continue;
  const t = performance.now();
  process.stderr.write(`… ${title}\n`);
  if (PER_NODE.has(key)) {
    results[key] = {};
    for (const major of nodes) {
      const node = nodeBinary(major);
      results[key][major] = await runJson(script(file), [...sectionArgs, "--json"], nodeFlags, node);
      const version = results[key][major][0]?.node ?? results[key][major].node ?? major;
      process.stdout.write(`\n## ${title}, Node ${version}\n\n${render(results[key][major])}\n`);
    }
    if (key === "http") process.stdout.write(`\n## Per request, by Node\n\n${renderByNode(results.http)}\n`);
  } else {
    results[key] = await runJson(script(file), [...sectionArgs, "--json"], nodeFlags);
    process.stdout.write(`\n## ${title}\n\n${render(results[key])}\n`);
  }
  process.stderr.write(`  (${((performance.now() - t) / 1000).toFixed(1)} s)\n`);
}

/**
 * Client CPU ratios of every variant, one column per Node major: to fetch, to the ky floor, and its user CPU to the
 * floor's.
 */
function renderByNode(byNode) {
  const majors = Object.keys(byNode);
  const first = byNode[majors[0]];
  const rows = [];
  first.forEach((block, b) => {
    for (const { name } of block.variants) {
      const of = (major) => byNode[major][b].variants.find((v) => v.name === name);
      rows.push([
        block.method,
        block.mode,
        name,
        ...majors.map((major) => fmt.ratio(of(major).cpuRatioToFetch)),
        ...majors.map((major) => fmt.ratio(of(major).cpuRatioToFloor)),
        ...majors.map((major) => fmt.ratio(of(major).userRatioToFloor)),
      ]);
    }
  });
  const versions = majors.map((major) => byNode[major][0]?.node ?? major);
  return table(
    [
      "operation",
      "mode",
      "variant",
      ...versions.map((v) => `CPU vs fetch, ${v}`),
      ...versions.map((v) => `CPU vs ${FLOOR}, ${v}`),
      ...versions.map((v) => `user CPU vs ${FLOOR}, ${v}`),
    ],
    rows,
  );
}

/**
 * Status polls per core-second of client CPU: every client's GET at concurrency 64 (the HTTP section, on the Node
 * that runs this script) and the SDK's `watch()` at thousands of watchers (the loopback section).
 */
function renderPollsPerCoreSecond(http, loopback) {
  const rows = [];
  const block = http?.find((b) => b.method.startsWith("GET") && b.mode.startsWith("concurrency"));
  for (const v of block?.variants ?? []) {
    rows.push([
      `${v.name}, GET at concurrency 64`,
      fmt.us(v.cpuUs),
      fmt.int(1e6 / v.cpuUs),
      fmt.bytes(v.headerBytes),
    ]);
  }
  if (loopback) {
    rows.push([
      `SDK payments.watch(), ${fmt.int(loopback.watchers)} watchers (mock server)`,
      fmt.us(loopback.cpuMsPerPoll * 1000),
      fmt.int(loopback.pollsPerCoreSecond),
      "",
    ]);
  }
  return table(["client", "client CPU / poll", "polls / core-second", "request head"], rows);
}
const thisNode = process.versions.node.split(".")[0];
if (results.http?.[thisNode] || results.loopback) {
  process.stdout.write(
    `\n## Status polls per core-second, Node ${process.version}\n\n${renderPollsPerCoreSecond(results.http?.[thisNode], results.loopback)}\n`,
  );
}

// Targets and budgets of the issue, against what was measured in this run.
const rows = [];
const check = (what, measured, target, ok) => rows.push([what, measured, target, ok ? "met" : "NOT MET"]);
// Issue 19 item 5 and issue 27, per Node: status() and create() within 1.1× of the ky floor (sequential and c64),
// create() at most raw fetch (CPU), and status() at c64 ahead of openai-node (both against raw fetch).
for (const blocks of Object.values(results.http ?? {})) {
  for (const block of blocks) {
    const sdk = block.variants.find((v) => v.name.startsWith("SDK"));
    const where = `${sdk.name}, ${block.mode}, ${block.node}`;
    check(
      `${where}: client CPU vs ${FLOOR}`,
      fmt.ratio(sdk.cpuRatioToFloor),
      "≤ 1.10×",
      sdk.cpuRatioToFloor <= 1.1,
    );
    const openai = block.variants.find((v) => v.name.startsWith("openai"));
    if (block.method.startsWith("GET") && block.mode.startsWith("concurrency") && openai) {
      check(
        `${where}: client CPU vs fetch, against openai-node's`,
        `${fmt.ratio(sdk.cpuRatioToFetch)} vs ${fmt.ratio(openai.cpuRatioToFetch)}`,
        "below openai-node",
        sdk.cpuRatioToFetch < openai.cpuRatioToFetch,
      );
    }
    if (block.method.startsWith("POST")) {
      check(
        `${where}: client CPU vs fetch`,
        fmt.ratio(sdk.cpuRatioToFetch),
        "≤ 1.00×",
        sdk.cpuRatioToFetch <= 1,
      );
    }
  }
}
// Issue 27 again, counted rather than timed: instructions per request do not move with the host.
for (const r of results.instructions?.results ?? []) {
  const mode = r.concurrency === 1 ? "sequential" : `concurrency ${r.concurrency}`;
  check(
    `SDK ${r.op === "get" ? "payments.status()" : "payments.create()"}, ${mode}, Node ${r.node}: instructions vs ${FLOOR}`,
    `${fmt.ratio(r.sdk.toFloor)} (with the collector ${fmt.ratio(r.sdk.totalToFloor)})`,
    "≤ 1.10×",
    r.sdk.toFloor <= 1.1,
  );
}
if (results.import) {
  const sdk = results.import.find((r) => r.name.startsWith("merchant-payments (dist"));
  if (sdk.ratioToOpenai !== undefined) {
    check(
      "cold import vs openai (process wall)",
      fmt.ratio(sdk.ratioToOpenai),
      "≤ 0.80×",
      sdk.ratioToOpenai <= 0.8,
    );
  }
  // Issue 27: import + the first status() against openai-node's import + first get(), in process, same run.
  const first = results.import.find((r) => r.name.startsWith("first call: merchant-payments"));
  if (first?.insideRatioToOpenai !== undefined) {
    check(
      `import + first call vs openai, ${process.version} (in process)`,
      fmt.ratio(first.insideRatioToOpenai),
      "≤ 0.60×",
      first.insideRatioToOpenai <= 0.6,
    );
  }
  // What the design allows at best: ky and zod/mini from node_modules, one schema, one GET (no SDK code at all).
  const floor = results.import.find((r) => r.name.startsWith("first call: ky + zod/mini floor"));
  if (floor?.insideRatioToOpenai !== undefined) {
    check(
      `the design's floor (ky + zod/mini, one GET) vs openai, ${process.version} (in process)`,
      fmt.ratio(floor.insideRatioToOpenai),
      "≤ 0.60× (to reach it at all)",
      floor.insideRatioToOpenai <= 0.6,
    );
  }
}
if (results.bundle) {
  const { total, own } = results.bundle.bundle;
  // Issue #11's targets: what `import { MerchantPaymentsClient }` pulls in (ky, zod, uuid included), and our own code.
  check("bundle total, min+gzip", fmt.kb(total.gzipBytes), "≤ 25.0 KB", total.gzipBytes <= 25_000);
  check("bundle own code, min+gzip", fmt.kb(own.gzipBytes), "≤ 12.0 KB", own.gzipBytes <= 12_000);
}
if (results.polling) {
  const p = results.polling;
  check("payments polled over ⌈elapsed/pollInMs⌉+1", `${p.overBound}/${p.payments}`, "0", p.overBound === 0);
}
if (results.watchers) {
  const w = results.watchers;
  check(
    `heap left after ${fmt.int(w.watchers)} watchers`,
    `${(w.heapLeftBytes / w.watchers).toFixed(1)} B/watcher`,
    "≤ 100 B/watcher",
    w.heapLeftBytes <= 100 * w.watchers,
  );
  const left = Object.keys(w.leftResources).length;
  check(
    "timers/handles left after the watchers",
    left === 0 ? "none" : JSON.stringify(w.leftResources),
    "none",
    left === 0,
  );
}
if (results.loopback) {
  const l = results.loopback;
  check(
    `${fmt.int(l.watchers)} watchers over loopback reach their final status`,
    fmt.int(l.finals),
    fmt.int(l.watchers),
    l.finals === l.watchers,
  );
  check(
    "sockets opened by those watchers",
    fmt.int(l.socketsOpened),
    `≤ ${l.maxSockets}`,
    l.socketsOpened <= l.maxSockets,
  );
}
if (results.mock) {
  const get = results.mock[0];
  check(
    "mock server throughput (GET status)",
    `${fmt.int(get.requestsPerSecond)} req/s`,
    "≥ 5,000 req/s",
    get.requestsPerSecond >= 5000,
  );
}
process.stdout.write(`\n## Targets and budgets\n\n${table(["what", "measured", "target", ""], rows)}\n`);
process.stdout.write(
  `\nNode ${process.version}, ${(await import("node:os")).cpus().length} CPUs; ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
);
if (typeof args.json === "string") writeFileSync(args.json, JSON.stringify(results, null, 2));
