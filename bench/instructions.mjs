// Instructions per request of the SDK and its two floors (lib/floors.mjs), over loopback, counted by valgrind: a
// measure that does not move with the host. Client CPU time on a shared machine spreads by ±10% from round to round
// (docs/performance.md, "How fine this host measures"), as much as the gap the ≤ 1.10× target is about; the count of
// the instructions the client's code executes repeats within 0.5% from process to process (48 processes, two of
// each variant, bench/RESULTS.md's thirteenth pass), whatever else the machine does: read a cell that decides
// something from two processes (`--reps=2`).
//
// Each count is one fresh process under valgrind's callgrind (user space only: the kernel's share of a request, the
// same for every variant that sends the same bytes, is left out), Node run with `--single-threaded` so that garbage
// collection and compilation happen on the counted thread. The process makes `--warm` calls uncounted, then
// `--window` counted ones (lib/counted-window.mjs): start-up, imports, the warm-up and exit are not in the count. The
// server is the fixed one (lib/fixed-server.mjs), in its own process, not counted. The count is split by function into
// the code's (the mutator: what the call runs, compilation included), the figure, and the garbage collector's
// (`COLLECTOR` below). About 75 seconds a process for the defaults, two at a time on two
// cores: 15 to 20 minutes for two Nodes, two operations, sequential and 64 at a time. Without valgrind it says so and
// measures nothing.
//
// The warm-up passes V8's threshold for optimising a function (lib/common.mjs, `OPTIMISED_AFTER`) seven times over:
// before it, the functions a request runs once are baseline code, where the SDK's own functions weigh more, and a
// request costs twice the instructions it costs a server that has made a few thousand (counted after 600 calls, a
// status call at c64 on Node 22 ran 973,000 instructions in the ky floor and 1,104,000 in the SDK). After 4,000 calls
// at c64, `node:http`'s per-socket functions are still being optimised (`--trace-opt`: 44 more in the next 1,200).
// After 20,000 creates, undici's `Request` constructor, its `extractBody` and ky's `mergeHooks` were still waiting for
// TurboFan (V8 had thrown their first code away when it changed an allocation site's tenuring), and compiled in the
// window: 30,000 calls of warm-up leave no compilation in any cell's window but one small function's
// (`--trace-opt --trace-deopt`, natively; Node 24's `onStreamRead` at c64). A window with compilations in it counted
// them for every variant alike (about 40,000 instructions a request on Node 24, the TurboFan compiler's), which drew
// the ratios toward 1, and where they fell moved from process to process (a Node 24 floor 4% low in 4 processes of 50).
//
//   node bench/instructions.mjs [--nodes=22,24] [--warm=30000] [--window=5000] [--reps=1] [--base=.tmp/dist-base]
//                              [--cells=get:1,get:64,post:1,post:64] [--v8-flags="--flag …"] [--json]
//   node bench/instructions.mjs --worker <url> <get|post> <concurrency> <variant> <warm> <window> [base]
//                              (one counted process: lib/counted-window.mjs's protocol on its stdin and stdout)
//
// `--base` counts an earlier build's SDK beside this one (copy dist/ before a change, as for bench/ab.mjs): a change
// of a few thousand instructions a request shows, where CPU time could not tell it from the host's noise.
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  fmt,
  isMain,
  median,
  nodeBinary,
  parseArgs,
  requireDist,
  ROOT,
  startChild,
  table,
} from "./lib/common.mjs";
import { byFunction, countWindow, runCountedWindow } from "./lib/counted-window.mjs";
import { BASE_SDK, CHECKED_FLOOR, FLOOR, SDK_GET, SDK_POST, sdkAndFloors } from "./lib/floors.mjs";

const CELLS = [
  { op: "get", concurrency: 1 },
  { op: "get", concurrency: 64 },
  { op: "post", concurrency: 1 },
  { op: "post", concurrency: 64 },
];
const SDK = { get: SDK_GET, post: SDK_POST };
const NODE_FLAGS = ["--single-threaded"];
/** The warm-up and the counted window: the warm-up runs uncounted, about ten times faster than the window. */
export const WARM = 30_000;
export const WINDOW = 5000;

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
 * Functions of V8's garbage collector (scavenges, marking, sweeping, evacuation): their instructions are counted apart,
 * the code's (the mutator: what the call runs, compilation included) being the figure. A window has no major
 * collection (lib/counted-window.mjs, `NO_MAJOR_GC`): the collector's count is the scavenges', and the bytes a request
 * puts into the old generation say how often a server pays for a major one.
 */
export const COLLECTOR =
  /Scaveng|Marking|MarkCompact|Sweep|Evacuat|RememberedSet|RecordMigrated|heap::base::|LiveObjectVisitor|Pretenuring|v8::internal::Heap::|MinorMS|GCTracer|cppgc::/;

/**
 * The instructions one process executes in its window, `{ mutator, collector }`, and what the collector did in it
 * (`majorGCs`, `minorGCs`, `oldBytes`): `window` calls of `variant` after `warm` uncounted ones, `concurrency` at a time
 * (lib/counted-window.mjs).
 */
async function count(node, url, { op, concurrency }, variant, { warm, window, v8Flags }, base) {
  const args = [url, op, String(concurrency), variant, String(warm), String(window)];
  if (base !== undefined) args.push(base);
  const { counts, collections } = await countWindow({
    node,
    nodeFlags: [...NODE_FLAGS, ...v8Flags],
    script: fileURLToPath(import.meta.url),
    args: ["--worker", ...args],
    read: (text) => byOwner(byFunction(text)),
  });
  return { ...counts, ...collections };
}

/** Instructions by owner: the collector's functions, and everything else's. */
function byOwner(counts) {
  const owners = { mutator: 0, collector: 0 };
  for (const [name, n] of counts) owners[COLLECTOR.test(name) ? "collector" : "mutator"] += n;
  return owners;
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
  warm = WARM,
  window = WINDOW,
  reps = 1,
  base,
  cells = CELLS,
  v8Flags = [],
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
            jobs.push(async () => {
              const instructions = await count(
                node,
                server.url,
                cell,
                variant,
                { warm, window, v8Flags },
                base,
              );
              counts.push({ major, ...cell, variant, ...instructions });
              log(
                `Node ${major} ${cell.op} c${cell.concurrency} ${variant}: ${JSON.stringify(instructions)}`,
              );
            });
          }
        }
      }
    }
    await pooled(jobs, Math.max(1, availableParallelism()));
    return { warm, window, reps, base, v8Flags, results: perRequest(counts, { nodes, cells, window, base }) };
  } finally {
    await server.stop();
  }
}

/**
 * Instructions per request of every (Node, cell, variant), the mutator's and the collector's, and the bytes a request
 * puts into the old generation: the median over reps of a window's figure ÷ its calls; and the major collections in
 * all its windows. The ratios to the ky floor are the mutator's, the total's and the old generation's.
 */
function perRequest(counts, { nodes, cells, window, base }) {
  const results = [];
  for (const major of nodes) {
    for (const cell of cells) {
      const cost = (variant) => {
        const of = counts.filter(
          (c) =>
            c.major === major &&
            c.op === cell.op &&
            c.concurrency === cell.concurrency &&
            c.variant === variant,
        );
        const per = (key) => median(of.map((c) => c[key] / window));
        const mutator = per("mutator");
        const collector = per("collector");
        const majorGCs = of.reduce((sum, c) => sum + c.majorGCs, 0);
        return { mutator, collector, total: mutator + collector, oldBytes: per("oldBytes"), majorGCs };
      };
      const floor = cost(FLOOR);
      const ratios = (variant) => {
        const own = cost(variant);
        return {
          ...own,
          toFloor: own.mutator / floor.mutator,
          totalToFloor: own.total / floor.total,
          oldToFloor: own.oldBytes / floor.oldBytes,
        };
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
const majors = (v) => (v.majorGCs === 0 ? "" : `, ${v.majorGCs} major`);
const old = (v) => `${fmt.kb(v.oldBytes)} old${majors(v)}`;
const counted = (v) => `${thousands(v.mutator)} + ${thousands(v.collector)}; ${old(v)}`;
const against = (v) =>
  `${counted(v)} (${fmt.ratio(v.toFloor)} / ${fmt.ratio(v.totalToFloor)} / ${fmt.ratio(v.oldToFloor)})`;

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
  return `${table(head, rows)}\n\nInstructions per request, client process, user space (valgrind): the code's + the scavenges'; the bytes a request puts into the old generation, which bring major collections (none in a counted process; any that ran anyway are named) (÷ ${FLOOR}: the code's / the total / the old generation's). ${fmt.int(window)} requests counted after ${fmt.int(warm)} of warm-up, ${reps === 1 ? "one process" : `median of ${reps} processes`} per variant.`;
}

async function runWorker([url, op, concurrency, variant, warm, window, baseDir]) {
  const call = (await sdkAndFloors(url, { baseDir }))[op][variant];
  if (!call) throw new Error(`no variant ${variant} for ${op}`);
  await runCountedWindow(call, {
    warm: Number(warm),
    window: Number(window),
    concurrency: Number(concurrency),
  });
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
      warm: Number(args.warm ?? WARM),
      window: Number(args.window ?? WINDOW),
      reps: Number(args.reps ?? 1),
      base: typeof args.base === "string" ? resolve(ROOT, args.base) : undefined,
      cells: typeof args.cells === "string" ? cellsNamed(args.cells) : undefined,
      v8Flags: typeof args["v8-flags"] === "string" ? args["v8-flags"].split(" ") : [],
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : `${render(result)}\n`);
  }
}
