// Instructions per request of the SDK and its two floors (lib/floors.mjs), over loopback, counted by valgrind: a
// measure that does not move with the host. Client CPU time on a shared machine spreads by ±10% from round to round
// (docs/performance.md, "How fine this host measures"), as much as the gap the ≤ 1.10× target is about; the count of
// the instructions the client's code executes repeats within about 1% from process to process, whatever else the
// machine does (unless a major collection falls in the window counted: see `COLLECTOR`).
//
// Each count is one fresh process under `valgrind --tool=cachegrind --cache-sim=no` (user space only: the kernel's
// share of a request, the same for every variant that sends the same bytes, is left out), Node run with
// `--single-threaded` so that garbage collection and compilation happen on the counted thread. The process makes
// `--warm` calls, then `--window` more; the count per request is the difference between that process and one that
// stops after the warm-up, divided by the window: start-up, imports and warm-up cancel out. The server is the fixed
// one (lib/fixed-server.mjs), in its own process, not counted. The count is split by function into the code's (the
// mutator: what the call runs, compilation included), which repeats, and the garbage collector's, which does not
// (`COLLECTOR` below says why). Valgrind runs code 30 to 60 times slower: about an hour for two Nodes, two
// operations, sequential and 64 at a time. Without valgrind it says so and measures nothing.
//
// The warm-up passes V8's threshold for optimising a function (lib/common.mjs, `OPTIMISED_AFTER`): before it, the
// functions a request runs once are baseline code, where the SDK's own functions weigh more, and a request costs twice
// the instructions it costs a server that has made a few thousand. Counted after 600 calls, a status call at c64 on
// Node 22 ran 973,000 instructions in the ky floor and 1,104,000 in the SDK (1.14×); after 4,000, 444,000 to 456,000
// and 472,000 to 474,000 (1.04× to 1.06×, two runs).
//
//   node bench/instructions.mjs [--nodes=22,24] [--warm=4000] [--window=1200] [--reps=1] [--base=.tmp/dist-base]
//                              [--cells=get:1,get:64,post:1,post:64] [--json]
//   node bench/instructions.mjs --worker <url> <get|post> <concurrency> <variant> <calls> [base]   (one counted process)
//
// `--base` counts an earlier build's SDK beside this one (copy dist/ before a change, as for bench/ab.mjs): a change
// of a few thousand instructions a request shows, where CPU time could not tell it from the host's noise.
import { execFile, spawnSync } from "node:child_process";
import { availableParallelism, tmpdir } from "node:os";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  fmt,
  isMain,
  median,
  nodeBinary,
  OPTIMISED_AFTER,
  parseArgs,
  requireDist,
  ROOT,
  runCalls,
  startChild,
  table,
} from "./lib/common.mjs";
import { BASE_SDK, CHECKED_FLOOR, FLOOR, SDK_GET, SDK_POST, sdkAndFloors } from "./lib/floors.mjs";

const CELLS = [
  { op: "get", concurrency: 1 },
  { op: "get", concurrency: 64 },
  { op: "post", concurrency: 1 },
  { op: "post", concurrency: 64 },
];
const SDK = { get: SDK_GET, post: SDK_POST };
const NODE_FLAGS = ["--single-threaded"];

/** The cells `--cells` names (`get:1,post:64`); a name that is no cell is refused, not skipped. */
export function cellsNamed(names) {
  return names.split(",").map((name) => {
    const cell = CELLS.find(({ op, concurrency }) => `${op}:${concurrency}` === name);
    if (!cell)
      throw new Error(
        `--cells: no cell ${name} (${CELLS.map((c) => `${c.op}:${c.concurrency}`).join(", ")})`,
      );
    return cell;
  });
}

/** Whether valgrind can be run here. */
export function hasValgrind() {
  return spawnSync("valgrind", ["--version"]).status === 0;
}

/**
 * Functions of V8's garbage collector (scavenges, marking, sweeping, evacuation): their instructions are counted apart.
 * A collection runs when the heap reaches a limit that V8 sets from the time collections take, so where a major one
 * falls moves with timing, which valgrind stretches 30 to 60 times: it lands in a window or not, and moves a
 * window's total by up to a third. The rest, the mutator (the code the call runs, compilation included), repeats.
 */
export const COLLECTOR =
  /Scaveng|Marking|MarkCompact|Sweep|Evacuat|RememberedSet|RecordMigrated|heap::base::|LiveObjectVisitor|Pretenuring|v8::internal::Heap::|MinorMS|GCTracer|cppgc::/;

/** The instructions one process executes, `{ mutator, collector }`: `calls` calls of `variant`, `concurrency` at a time. */
async function count(node, url, { op, concurrency }, variant, calls, base) {
  const dir = await mkdtemp(join(tmpdir(), "instructions-"));
  try {
    const out = join(dir, "cachegrind.out");
    const args = ["--tool=cachegrind", "--cache-sim=no", `--cachegrind-out-file=${out}`, node, ...NODE_FLAGS];
    const worker = [
      fileURLToPath(import.meta.url),
      "--worker",
      url,
      op,
      String(concurrency),
      variant,
      String(calls),
    ];
    if (base !== undefined) worker.push(base);
    await promisify(execFile)("valgrind", [...args, ...worker], { maxBuffer: 1 << 24 });
    return byOwner(await readFile(out, "utf8"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Sums a cachegrind output's instructions by function: the collector's, and everything else's. */
function byOwner(text) {
  const counts = { mutator: 0, collector: 0 };
  let owner = "mutator";
  for (const line of text.split("\n")) {
    if (line.startsWith("fn=")) owner = COLLECTOR.test(line) ? "collector" : "mutator";
    else if (line.charCodeAt(0) >= 0x30 && line.charCodeAt(0) <= 0x39)
      counts[owner] += Number(line.split(" ")[1]);
  }
  if (counts.mutator === 0) throw new Error("cachegrind counted no instructions");
  return counts;
}

/** The variants counted in a cell: the floors, the SDK, and with `base` the earlier build's SDK. */
function variantsOf(cell, base) {
  return [FLOOR, CHECKED_FLOOR, SDK[cell.op], ...(base === undefined ? [] : [BASE_SDK])];
}

/** Runs `jobs` (functions returning promises) `limit` at a time. */
async function pooled(jobs, limit) {
  const queue = [...jobs];
  const results = [];
  const worker = async () => {
    while (queue.length > 0) {
      const job = queue.shift();
      results.push(await job());
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

export async function measure({
  nodes = ["22", "24"],
  warm = OPTIMISED_AFTER,
  window = 1200,
  reps = 1,
  base,
  cells = CELLS,
  log = () => {},
}) {
  requireDist();
  const server = await startChild(new URL("./lib/fixed-server.mjs", import.meta.url).pathname);
  try {
    const jobs = [];
    const counts = [];
    for (const major of nodes) {
      const node = nodeBinary(major);
      for (const cell of cells) {
        for (const variant of variantsOf(cell, base)) {
          for (let rep = 0; rep < reps; rep++) {
            for (const calls of [warm, warm + window]) {
              jobs.push(async () => {
                const instructions = await count(node, server.url, cell, variant, calls, base);
                counts.push({ major, ...cell, variant, calls, ...instructions });
                log(
                  `Node ${major} ${cell.op} c${cell.concurrency} ${variant} ${calls} calls: ${JSON.stringify(instructions)}`,
                );
              });
            }
          }
        }
      }
    }
    await pooled(jobs, Math.max(1, availableParallelism()));
    return { warm, window, reps, base, results: perRequest(counts, { nodes, cells, warm, window, base }) };
  } finally {
    await server.stop();
  }
}

/**
 * Instructions per request of every (Node, cell, variant), the mutator's and the collector's: the median over reps of
 * (warmed + window − warmed) / window. The ratios to the ky floor are the mutator's (the firm one) and the total's.
 */
function perRequest(counts, { nodes, cells, warm, window, base }) {
  const results = [];
  for (const major of nodes) {
    for (const cell of cells) {
      const of = (variant, calls) =>
        counts.filter(
          (c) =>
            c.major === major &&
            c.op === cell.op &&
            c.concurrency === cell.concurrency &&
            c.variant === variant &&
            c.calls === calls,
        );
      const cost = (variant) => {
        const before = of(variant, warm);
        const after = of(variant, warm + window);
        const per = (owner) => median(after.map((c, i) => (c[owner] - before[i][owner]) / window));
        const mutator = per("mutator");
        const collector = per("collector");
        return { mutator, collector, total: mutator + collector };
      };
      const floor = cost(FLOOR);
      const ratios = (variant) => {
        const own = cost(variant);
        return { ...own, toFloor: own.mutator / floor.mutator, totalToFloor: own.total / floor.total };
      };
      results.push({
        node: major,
        ...cell,
        floor,
        checked: ratios(CHECKED_FLOOR),
        sdk: ratios(SDK[cell.op]),
        ...(base !== undefined && { base: ratios(BASE_SDK) }),
      });
    }
  }
  return results;
}

const thousands = (n) => `${fmt.int(n / 1000)} k`;
const counted = (v) => `${thousands(v.mutator)} + ${thousands(v.collector)}`;
const against = (v) => `${counted(v)} (${fmt.ratio(v.toFloor)} / ${fmt.ratio(v.totalToFloor)})`;

export function render({ skipped, warm, window, reps, base, results }) {
  if (skipped) return skipped;
  const rows = results.map((r) => [
    `Node ${r.node}`,
    `${r.op === "get" ? "GET status" : "POST create"}, ${r.concurrency === 1 ? "sequential" : `${r.concurrency} at a time`}`,
    counted(r.floor),
    against(r.checked),
    against(r.sdk),
    ...(base === undefined ? [] : [against(r.base)]),
  ]);
  const head = ["Node", "call", FLOOR, CHECKED_FLOOR, "SDK"];
  if (base !== undefined) head.push(BASE_SDK);
  return `${table(head, rows)}\n\nInstructions per request, client process, user space (valgrind): the code's + the garbage collector's (÷ ${FLOOR}: the code's / the total). ${fmt.int(window)} requests counted after ${fmt.int(warm)} of warm-up, ${reps === 1 ? "one process pair" : `median of ${reps} process pairs`} per variant. Where a major collection falls moves with timing: the code's count is the firm one.`;
}

async function runWorker([url, op, concurrency, variant, calls, baseDir]) {
  const call = (await sdkAndFloors(url, { baseDir }))[op][variant];
  if (!call) throw new Error(`no variant ${variant} for ${op}`);
  await runCalls(call, Number(calls), Number(concurrency));
  process.exit(0); // the pool's keep-alive sockets would hold the process open
}

if (isMain(import.meta.url)) {
  const argv = process.argv.slice(2);
  if (argv[0] === "--worker") {
    await runWorker(argv.slice(1));
  } else {
    const args = parseArgs();
    if (!hasValgrind()) {
      const skipped = "valgrind is not installed: no instruction counts";
      process.stdout.write(args.json ? `${JSON.stringify({ skipped })}\n` : `${skipped}\n`);
      process.exit(0);
    }
    const result = await measure({
      nodes: String(args.nodes ?? "22,24").split(","),
      warm: Number(args.warm ?? OPTIMISED_AFTER),
      window: Number(args.window ?? 1200),
      reps: Number(args.reps ?? 1),
      base: typeof args.base === "string" ? resolve(ROOT, args.base) : undefined,
      cells: typeof args.cells === "string" ? cellsNamed(args.cells) : undefined,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : `${render(result)}\n`);
  }
}
