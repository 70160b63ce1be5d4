// Instructions per request by function, JavaScript functions named: where two variants of one cell differ.
// `instructions.mjs` counts whole processes and can split them only by the names valgrind knows (V8's C++ and
// builtins); the code V8 compiles at run time is one anonymous `???` to it. Here each process runs under valgrind's
// callgrind with every instruction's address kept (`--dump-instr=yes`) and Node writes where it put each compiled
// function (`--perf-basic-prof`, /tmp/perf-<pid>.map), so an address in compiled code is named after its function
// (`JS:*#attempt file:///…/dist/index.js:1643` for TurboFan code; `^` baseline, `+` Maglev, `~` interpreted).
// The count per request is the same difference as instructions.mjs's: a process that makes `--window` calls after
// `--warm` less one that stops after the warm-up. Processes run one at a time.
//
//   node bench/functions.mjs [--node=22] [--cell=get:64] [--variants="ky floor + checks,SDK payments.status()"]
//                            [--warm=4000] [--window=1200] [--top=40]
//
// About 5 minutes a variant after 4,000 calls of warm-up. Needs valgrind; says so without it. `detail::sprp` (start-up)
// differs from process to process, and the collector's rows with where a collection falls: read the code's rows.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  fmt,
  isMain,
  nodeBinary,
  OPTIMISED_AFTER,
  parseArgs,
  requireDist,
  startChild,
  table,
} from "./lib/common.mjs";
import { CHECKED_FLOOR, SDK_GET, SDK_POST } from "./lib/floors.mjs";
import { COLLECTOR, cellsNamed, hasValgrind } from "./instructions.mjs";

const INSTRUCTIONS = fileURLToPath(new URL("./instructions.mjs", import.meta.url));

/** Instructions by function name in one process: `calls` calls of `variant` in `cell`. */
async function countByFunction(node, url, { op, concurrency }, variant, calls) {
  const dir = await mkdtemp(join(tmpdir(), "functions-"));
  try {
    const out = join(dir, "callgrind.%p");
    const worker = [INSTRUCTIONS, "--worker", url, op, String(concurrency), variant, String(calls)];
    await promisify(execFile)(
      "valgrind",
      [
        "--tool=callgrind",
        "--dump-instr=yes",
        `--callgrind-out-file=${out}`,
        node,
        "--single-threaded",
        "--perf-basic-prof",
        // The perf map goes to /tmp/perf-<pid>.map; V8's own log, which the flag also opens, into this directory.
        `--logfile=${join(dir, "v8.log")}`,
        "--no-logfile-per-isolate",
        ...worker,
      ],
      { maxBuffer: 1 << 24 },
    );
    const file = (await readdir(dir)).find((name) => name.startsWith("callgrind."));
    const pid = file.slice("callgrind.".length);
    const map = `/tmp/perf-${pid}.map`;
    try {
      return byFunction(await readFile(join(dir, file), "utf8"), compiledCode(await readFile(map, "utf8")));
    } finally {
      await rm(map, { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A perf map's ranges `[start, size, name]`, sorted by start, and a lookup of the name an address falls in. */
function compiledCode(text) {
  const ranges = text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [start, size, ...name] = line.split(" ");
      return [Number.parseInt(start, 16), Number.parseInt(size, 16), name.join(" ")];
    })
    .sort((a, b) => a[0] - b[0]);
  return (address) => {
    let low = 0;
    let high = ranges.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (ranges[middle][0] <= address) low = middle + 1;
      else high = middle - 1;
    }
    const range = ranges[high];
    return range && address < range[0] + range[1] ? range[2] : undefined;
  };
}

/**
 * Sums a callgrind file's instructions by function, naming run-time code by its address (`nameAt`). The format: `fn=`
 * and `cfn=` lines name functions (`(id) name` the first time, `(id)` after); cost lines are `address line count`,
 * the address absolute (`0x…`) or relative to the previous one (`+n`, `-n`, `*`); the line after `calls=` is the
 * inclusive cost of a call, not the function's own.
 */
function byFunction(text, nameAt) {
  const names = new Map();
  const counts = new Map();
  let fn = "";
  let address = 0;
  let callCost = false;
  for (const line of text.split("\n")) {
    const named = /^(c?fn)=\((\d+)\)(?: (.*))?$/.exec(line);
    if (named) {
      if (named[3] !== undefined) names.set(named[2], named[3]);
      if (named[1] === "fn") fn = names.get(named[2]) ?? "";
      continue;
    }
    if (line.startsWith("calls=")) {
      callCost = true;
      continue;
    }
    const [position, , cost] = line.split(" ");
    if (position === undefined || !/^(0x[0-9a-f]+|[+-]\d+|\*)$/.test(position)) continue;
    if (position.startsWith("0x")) address = Number.parseInt(position, 16);
    else if (position !== "*") address += Number(position);
    if (callCost) {
      callCost = false;
      continue;
    }
    const name = fn.startsWith("0x") || fn === "???" ? (nameAt(address) ?? "??? (not in the perf map)") : fn;
    counts.set(name, (counts.get(name) ?? 0) + Number(cost ?? 0));
  }
  return counts;
}

/** Per request by function: (after − before) / window. */
function perRequest(before, after, window) {
  const out = new Map();
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    out.set(name, ((after.get(name) ?? 0) - (before.get(name) ?? 0)) / window);
  }
  return out;
}

/** The difference `b − a` by function, largest first, and each side's total for the code and for the collector. */
function compare(a, b, top) {
  const total = (counts, collector) =>
    [...counts].filter(([name]) => COLLECTOR.test(name) === collector).reduce((sum, [, n]) => sum + n, 0);
  const names = [...new Set([...a.keys(), ...b.keys()])];
  const rows = names
    .map((name) => ({ name, a: a.get(name) ?? 0, b: b.get(name) ?? 0 }))
    .sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a))
    .slice(0, top);
  return {
    code: { a: total(a, false), b: total(b, false) },
    collector: { a: total(a, true), b: total(b, true) },
    rows,
  };
}

export async function measure({
  node = "22",
  cell,
  variants,
  warm = OPTIMISED_AFTER,
  window = 1200,
  top = 40,
}) {
  requireDist();
  const binary = nodeBinary(node);
  const server = await startChild(new URL("./lib/fixed-server.mjs", import.meta.url).pathname);
  try {
    const counts = [];
    for (const variant of variants) {
      const before = await countByFunction(binary, server.url, cell, variant, warm);
      const after = await countByFunction(binary, server.url, cell, variant, warm + window);
      counts.push(perRequest(before, after, window));
    }
    return { node, cell, variants, warm, window, ...compare(counts[0], counts[1], top) };
  } finally {
    await server.stop();
  }
}

export function render({ node, cell, variants: [a, b], warm, window, code, collector, rows }) {
  const line = (what, x, y) => [what, fmt.int(x), fmt.int(y), fmt.int(y - x)];
  const head = ["function", a, b, "difference"];
  const body = [
    line("(the code: everything but the collector)", code.a, code.b),
    line("(the garbage collector)", collector.a, collector.b),
    ...rows.map((row) => line(row.name.slice(0, 120), row.a, row.b)),
  ];
  return `${table(head, body)}\n\nInstructions per request by function, Node ${node}, ${cell.op} at concurrency ${cell.concurrency}: ${fmt.int(window)} requests after ${fmt.int(warm)} of warm-up, one process pair per variant (callgrind; compiled JavaScript named from \`--perf-basic-prof\`).`;
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  if (!hasValgrind()) {
    process.stdout.write("valgrind is not installed: no counts by function\n");
    process.exit(0);
  }
  const [cell] = cellsNamed(String(args.cell ?? "get:64"));
  const sdk = cell.op === "get" ? SDK_GET : SDK_POST;
  const variants = typeof args.variants === "string" ? args.variants.split(",") : [CHECKED_FLOOR, sdk];
  if (variants.length !== 2)
    throw new Error("--variants: name two variants, the second compared with the first");
  const result = await measure({
    node: String(args.node ?? "22"),
    cell,
    variants,
    warm: Number(args.warm ?? OPTIMISED_AFTER),
    window: Number(args.window ?? 1200),
    top: Number(args.top ?? 40),
  });
  process.stdout.write(`${render(result)}\n`);
}
