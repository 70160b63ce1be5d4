// The bytes each request puts into the old generation, natively (no valgrind): a process makes `--calls` calls 64 at
// a time in batches of 1,000 against the fixed server (lib/fixed-server.mjs), with no major collection
// (lib/counted-window.mjs's `NO_MAJOR_GC`), and reports the old generation's growth per request over its last five
// batches. Seconds per process, where `instructions.mjs` takes minutes: the way to see V8's pretenuring at work.
//
// What it shows (bench/RESULTS.md, twelfth pass): on Node 22, a process of creates at c64 either puts about 5 KB a
// request into the old generation, as the ky floor does, or 13 to 15 KB, when V8 has decided to allocate Node's
// `EventTarget` listener-list heads (`{ size, next, resistStopPropagation }`, one per signal and event type) in the
// old generation. `--settle-listener-site` adds and removes 200,000 abort listeners on fresh signals before the
// calls, so that this one allocation site is decided "don't pretenure" (its objects die young) before the calls
// start: nothing else about the process changes.
//
//   node bench/promotion.mjs [--nodes=22,24] [--op=post] [--runs=3] [--calls=10000] [--settle-listener-site]
//   node bench/promotion.mjs --worker <variant> <op> <calls> <settle: 0|1>   (one process; prints one JSON line)
import { fileURLToPath } from "node:url";
import {
  isMain,
  median,
  nodeBinary,
  parseArgs,
  requireDist,
  runCalls,
  runJson,
  startChild,
  table,
} from "./lib/common.mjs";
import { NO_MAJOR_GC, oldGenerationNow } from "./lib/counted-window.mjs";
import { CHECKED_FLOOR, FLOOR, SDK_GET, SDK_POST, sdkAndFloors } from "./lib/floors.mjs";

const SCRIPT = fileURLToPath(import.meta.url);
const SERVER = fileURLToPath(new URL("./lib/fixed-server.mjs", import.meta.url));
const BATCH = 1000;
const CONCURRENCY = 64;

/** Makes the listener-list head's allocation site see only objects that die young, so V8 never pretenures it. */
function settleListenerSite() {
  const listener = () => {};
  for (let i = 0; i < 200_000; i++) {
    const { signal } = new AbortController();
    signal.addEventListener("abort", listener);
    signal.removeEventListener("abort", listener);
  }
}

/** One process: the old generation's growth per request in each batch, KB. */
async function worker(variant, op, calls, settle) {
  if (settle) settleListenerSite();
  const server = await startChild(SERVER);
  try {
    const call = (await sdkAndFloors(server.url))[op][variant];
    const perBatch = [];
    let before = oldGenerationNow();
    for (let done = 0; done < calls; done += BATCH) {
      await runCalls(call, BATCH, CONCURRENCY);
      const after = oldGenerationNow();
      perBatch.push((after - before) / BATCH / 1024);
      before = after;
    }
    return { variant, perBatch };
  } finally {
    await server.stop();
  }
}

export async function measure({
  nodes = [22, 24],
  op = "post",
  runs = 3,
  calls = 10_000,
  settle = false,
} = {}) {
  requireDist();
  const variants = [FLOOR, CHECKED_FLOOR, op === "get" ? SDK_GET : SDK_POST];
  const results = [];
  for (const major of nodes) {
    for (const variant of variants) {
      const kbPerRequest = [];
      for (let run = 0; run < runs; run++) {
        const args = ["--worker", variant, op, String(calls), settle ? "1" : "0"];
        const { perBatch } = await runJson(SCRIPT, args, NO_MAJOR_GC, nodeBinary(major));
        kbPerRequest.push(median(perBatch.slice(-5)));
      }
      results.push({ node: major, variant, kbPerRequest });
    }
  }
  return { op, calls, settle, results };
}

export function render({ op, settle, results }) {
  const rows = results.map(({ node, variant, kbPerRequest }) => [
    `Node ${node}`,
    variant,
    kbPerRequest.map((kb) => kb.toFixed(1)).join(", "),
  ]);
  return `${table(["Node", "variant", "old generation, KB a request (each process)"], rows)}\n\n${op.toUpperCase()} at concurrency ${CONCURRENCY}, no major collection; median of the last five batches of ${BATCH}${settle ? "; listener-list site settled first" : ""}.`;
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  if (args.worker) {
    const [variant, op, calls, settle] = process.argv.slice(process.argv.indexOf("--worker") + 1);
    console.log(JSON.stringify(await worker(variant, op, Number(calls), settle === "1")));
  } else {
    const result = await measure({
      nodes: String(args.nodes ?? "22,24")
        .split(",")
        .map(Number),
      op: args.op ?? "post",
      runs: Number(args.runs ?? 3),
      calls: Number(args.calls ?? 10_000),
      settle: args["settle-listener-site"] === true,
    });
    console.log(args.json ? JSON.stringify(result) : render(result));
  }
}
