// Instructions per request by function, JavaScript functions named: where two variants of one cell differ.
// `instructions.mjs` counts whole processes and can split them only by the names valgrind knows (V8's C++ and
// builtins); the code V8 compiles at run time is one anonymous `???` to it. Here each process runs under valgrind's
// callgrind with every instruction's address kept (`--dump-instr=yes`) and Node writes where it put each compiled
// function (`--perf-basic-prof`, /tmp/perf-<pid>.map), so an address in compiled code is named after its function
// (`JS:*#attempt file:///…/dist/index.js:1643` for TurboFan code; `^` baseline, `+` Maglev, `~` interpreted).
// The count per request is instructions.mjs's: one process per variant, `--window` calls counted after `--warm`
// uncounted ones (lib/counted-window.mjs). The two variants' processes run side by side.
//
//   node bench/functions.mjs [--node=22] [--cell=get:64] [--variants="ky floor + checks,SDK payments.status()"]
//                            [--warm=30000] [--window=5000] [--top=40]
//
// About 3 minutes for the defaults. Needs valgrind; says so without it. No major collection runs in a counted
// process (lib/counted-window.mjs, `NO_MAJOR_GC`): the collector's rows are the scavenges'.
import { readFile, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { fmt, isMain, nodeBinary, parseArgs, requireDist, startChild, table } from "./lib/common.mjs";
import { byFunction, countWindow } from "./lib/counted-window.mjs";
import { CHECKED_FLOOR, SDK_GET, SDK_POST } from "./lib/floors.mjs";
import { COLLECTOR, cellsNamed, hasValgrind, WARM, WINDOW } from "./instructions.mjs";

const INSTRUCTIONS = fileURLToPath(new URL("./instructions.mjs", import.meta.url));

/** Instructions by function name in one process's window: `window` calls of `variant` after `warm` uncounted ones. */
function countByFunction(node, url, { op, concurrency }, variant, { warm, window }) {
  return countWindow({
    node,
    nodeFlags: ["--single-threaded", "--perf-basic-prof"], // the perf map: /tmp/perf-<pid>.map
    script: INSTRUCTIONS,
    args: ["--worker", url, op, String(concurrency), variant, String(warm), String(window)],
    valgrindFlags: ["--dump-instr=yes"],
    read: async (text, pid) => {
      const map = `/tmp/perf-${pid}.map`;
      try {
        return byFunction(text, compiledCode(await readFile(map, "utf8")));
      } finally {
        await rm(map, { force: true });
      }
    },
  });
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

export async function measure({ node = "22", cell, variants, warm = WARM, window = WINDOW, top = 40 }) {
  requireDist();
  const binary = nodeBinary(node);
  const server = await startChild(new URL("./lib/fixed-server.mjs", import.meta.url).pathname);
  try {
    const perRequest = await Promise.all(
      variants.map(async (variant) => {
        const { counts } = await countByFunction(binary, server.url, cell, variant, { warm, window });
        return new Map([...counts].map(([name, n]) => [name, n / window]));
      }),
    );
    return { node, cell, variants, warm, window, ...compare(perRequest[0], perRequest[1], top) };
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
  return `${table(head, body)}\n\nInstructions per request by function, Node ${node}, ${cell.op} at concurrency ${cell.concurrency}: ${fmt.int(window)} requests after ${fmt.int(warm)} of warm-up, one process per variant (callgrind; compiled JavaScript named from \`--perf-basic-prof\`).`;
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
    warm: Number(args.warm ?? WARM),
    window: Number(args.window ?? WINDOW),
    top: Number(args.top ?? 40),
  });
  process.stdout.write(`${render(result)}\n`);
}
