// Counts the instructions of one stretch of a process's life under valgrind's callgrind: the calls made after a
// warm-up, and nothing else (start-up, imports, the warm-up, exit). The process starts with callgrind's instrumentation
// off (`--instr-atstart=no`: it runs about ten times faster than counted, so a warm-up of tens of thousands of calls
// takes a minute), says `warm` on stdout when warmed, and waits for a line on stdin; the parent turns instrumentation on
// (`callgrind_control -i on <pid>`, through valgrind's gdbserver) and answers; the process makes its counted calls,
// says `counted` and waits again; the parent turns instrumentation off and lets it exit. One process per count: no
// difference of two processes, whose start-ups and collections differ.
//
// The process makes no major collection (`NO_MAJOR_GC`). Where one falls moves with timing, which valgrind stretches:
// V8 sizes the old generation from the time collections take, and under valgrind a status call at c64 ran one every
// 3,500 calls (7 in 25,000; natively 3), so most windows held one or two and each moved the window's count, the
// code's too (incremental marking's write barriers, the finalisation callbacks of what it frees). What brings major
// collections is reported instead: the bytes a window's calls put into the old generation.
import { execFile, spawn } from "node:child_process";
import { readSync, writeSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { GCProfiler, getHeapSpaceStatistics } from "node:v8";
import { runCalls } from "./common.mjs";

/** Warm-up calls per `runCalls`: see runCountedWindow. */
const WARM_BATCH = 1000;

/**
 * The worker's side: `warm` calls of `call` uncounted, then `window` calls counted, `concurrency` at a time; then what
 * the collector did in the window, on one line (`collections {…}`: `collectionsOf`), and exit (the pool's keep-alive
 * sockets would hold the process open). No full collection is forced before the window: V8 deoptimises code with it
 * (`--trace-deopt`: 205 lines against 75), and the ky floor's next calls ran 2.5 times as long.
 *
 * The worker talks to the parent through its file descriptors, synchronously (`tell`, `awaitAnswer`), never through
 * `process.stdout` or `process.stdin`: those are streams (a `net.Socket` over a pipe), made on first use, and the
 * stream functions a request runs (`Readable.push`, `onwrite`, `Socket._read`) met their maps for the first time at
 * the window's start, were deoptimised ("wrong map") and compiled again inside the counted calls (`--trace-deopt`).
 */
export async function runCountedWindow(call, { warm, window, concurrency }) {
  // In batches, so that the loop making the calls (runCalls) is itself called often enough to be compiled before the
  // window: run once, it was compiled in the window (`--trace-opt`: 4 ms of TurboFan, natively).
  for (let done = 0; done < warm; done += WARM_BATCH)
    await runCalls(call, Math.min(WARM_BATCH, warm - done), concurrency);
  const profiler = new GCProfiler();
  const oldAtStart = oldGenerationNow();
  profiler.start();
  tell("warm");
  awaitAnswer();
  await runCalls(call, window, concurrency);
  tell("counted");
  awaitAnswer();
  const { statistics } = profiler.stop();
  const oldAtEnd = oldGenerationNow();
  const collections = collectionsOf(statistics, oldAtEnd - oldAtStart);
  tell(`collections ${JSON.stringify(collections)}`);
  process.exit(0);
}

/** Writes one line to the parent (file descriptor 1, synchronously). */
function tell(line) {
  writeSync(1, `${line}\n`);
}

/** Blocks until the parent's answer, one line on file descriptor 0 (libuv leaves a child's stdio blocking). */
function awaitAnswer() {
  const byte = Buffer.alloc(1);
  while (readSync(0, byte, 0, 1, null) === 1 && byte[0] !== 0x0a);
}

/** The bytes in use in the old generation now. */
export function oldGenerationNow() {
  return oldGenerationBytes(getHeapSpaceStatistics(), "space_name", "space_used_size");
}

/**
 * The bytes in use in the old generation's spaces (old objects, large objects), from V8's space statistics: camelCase
 * in `GCProfiler`'s entries, snake_case from `getHeapSpaceStatistics()`.
 */
function oldGenerationBytes(spaces, nameKey = "spaceName", usedKey = "spaceUsedSize") {
  return spaces
    .filter((space) => space[nameKey] === "old_space" || space[nameKey] === "large_object_space")
    .reduce((sum, space) => sum + space[usedKey], 0);
}

/**
 * From `v8.GCProfiler`'s entries and the old generation's growth over the window: the major collections
 * (`MarkSweepCompact`), the minor ones, and the bytes the window put into the old generation (promoted by minor
 * collections, allocated there at once, large objects): its growth plus what the major collections freed. Those bytes
 * are what brings the next major collection.
 */
function collectionsOf(statistics, growth) {
  const major = statistics.filter(({ gcType }) => gcType === "MarkSweepCompact");
  const freed = major.reduce(
    (sum, gc) =>
      sum +
      oldGenerationBytes(gc.beforeGC.heapSpaceStatistics) -
      oldGenerationBytes(gc.afterGC.heapSpaceStatistics),
    0,
  );
  return { majorGCs: major.length, minorGCs: statistics.length - major.length, oldBytes: growth + freed };
}

/**
 * V8 flags for a process without major collections: the old generation's first limit at 1 GB, above what 25,000 calls
 * put there (a status call at c64, natively: 0 major collections in 60,000 calls, against 3 in 25,000 by default), and
 * no memory reducer, which starts one when the allocation rate looks low, as it does to a process valgrind slows.
 */
export const NO_MAJOR_GC = ["--initial-old-space-size=1024", "--no-memory-reducer"];

/** Switches callgrind's instrumentation of process `pid` on or off; resolves once valgrind has done it. */
async function instrument(pid, state) {
  const { stdout } = await promisify(execFile)("callgrind_control", ["-i", state, String(pid)]);
  if (!stdout.includes("OK")) throw new Error(`callgrind_control -i ${state} ${pid}: ${stdout.trim()}`);
}

/**
 * Runs `node nodeFlags… script args…` under callgrind (with `valgrindFlags`), counting only its window (see the
 * header), and returns `{ counts: read(text of callgrind's file, pid), collections }` (`collectionsOf`). V8's log,
 * which flags such as `--perf-basic-prof` open, goes to a file of the run's: on stdout it would break the protocol's
 * lines. A process whose instrumentation could not be switched is killed, not left waiting for its next line.
 */
export async function countWindow({ node, nodeFlags = [], script, args, valgrindFlags = [], read }) {
  const dir = await mkdtemp(join(tmpdir(), "counted-window-"));
  try {
    const valgrind = [
      "--tool=callgrind",
      "--instr-atstart=no",
      `--callgrind-out-file=${join(dir, "callgrind.%p")}`,
      ...valgrindFlags,
    ];
    const v8Log = [`--logfile=${join(dir, "v8.log")}`, "--no-logfile-per-isolate"];
    const flags = [...nodeFlags, ...NO_MAJOR_GC, ...v8Log];
    const child = spawn("valgrind", [...valgrind, node, ...flags, script, ...args], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let errors = "";
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      errors = (errors + chunk).slice(-8192);
    });
    const exited = new Promise((resolvePromise) => child.once("close", resolvePromise));
    let counted = false;
    let collections;
    try {
      for await (const line of createInterface({ input: child.stdout })) {
        if (line === "warm") await instrument(child.pid, "on");
        else if (line === "counted") {
          await instrument(child.pid, "off");
          counted = true;
        } else {
          if (line.startsWith("collections ")) collections = JSON.parse(line.slice("collections ".length));
          continue;
        }
        child.stdin.write("go\n");
      }
    } catch (error) {
      child.kill();
      throw error;
    }
    const code = await exited;
    if (!counted || collections === undefined || code !== 0)
      throw new Error(`${script} exited with ${code} before its window was counted:\n${errors}`);
    const file = (await readdir(dir)).find((name) => name.startsWith("callgrind."));
    const counts = await read(await readFile(join(dir, file), "utf8"), file.slice("callgrind.".length));
    return { counts, collections };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Sums a callgrind file's instructions by function, naming code that valgrind cannot (the code V8 compiles at run time,
 * `???` or a bare address) with `nameAt(address)` when it is given. The format: `fn=` and `cfn=` lines name functions
 * (`(id) name` the first time, `(id)` after); a cost line is its positions then its count, the instruction address
 * first with `--dump-instr=yes`, absolute (`0x…`) or relative to the previous one (`+n`, `-n`, `*`); the line after
 * `calls=` is the inclusive cost of a call, not the function's own.
 */
export function byFunction(text, nameAt = () => undefined) {
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
    const fields = line.split(" ");
    if (!/^(0x[0-9a-f]+|[+-]\d+|\*|\d+)$/.test(fields[0])) continue;
    if (fields[0].startsWith("0x")) address = Number.parseInt(fields[0], 16);
    else if (/^[+-]/.test(fields[0])) address += Number(fields[0]);
    if (callCost) {
      callCost = false;
      continue;
    }
    const unnamed = fn.startsWith("0x") || fn === "???";
    const name = unnamed ? (nameAt(address) ?? "??? (compiled at run time)") : fn;
    counts.set(name, (counts.get(name) ?? 0) + Number(fields.at(-1)));
  }
  if (counts.size === 0) throw new Error("callgrind counted no instructions");
  return counts;
}
