// Shared helpers of the benchmark scripts: paths, statistics, formatting, child processes.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const DIST = join(ROOT, "dist", "index.js");
export const DIST_TESTING = join(ROOT, "dist", "testing", "index.js");

/**
 * Calls after which every function a request runs once is optimised: V8 compiles a function with TurboFan once it
 * has run 3,000 times (`--invocation-count-for-turbofan`, Node 22 and 24; before, it is interpreted, baseline or, on
 * Node 24, Maglev code). A bench that measures a server's steady cost warms each variant past it.
 */
export const OPTIMISED_AFTER = 4000;

/** Fails with a hint when the package has not been built. */
export function requireDist() {
  if (!existsSync(DIST) || !existsSync(DIST_TESTING)) {
    throw new Error(`${DIST} is missing: run \`npm run build\` first`);
  }
}

/**
 * A chunk of the package's build in `dir` (default dist/): the file whose name starts with `prefix` among those
 * `index.js` reaches through its imports. dist/ also holds the CLIs' build, whose chunks have the same names with
 * other hashes: a chunk of the wrong one would pair, say, an adapter with a `bodyTextOf` that never saw its answers.
 */
export async function distChunk(prefix, dir = join(ROOT, "dist")) {
  const seen = new Set(["index.js"]);
  for (const file of seen) {
    if (file.startsWith(prefix)) return import(pathToFileURL(join(dir, file)).href);
    const text = readFileSync(join(dir, file), "utf8");
    for (const [, name] of text.matchAll(/(?:from |import\()"\.\/([^"]+\.js)"/g)) seen.add(name);
  }
  throw new Error(`${dir} has no ${prefix}* chunk reached from index.js: run npm run build`);
}

/** The SDK's pooled node:http adapter (`src/core/wire/node-fetch.ts`), as built into its own chunk of dist/. */
export function loadAdapter() {
  return distChunk("node-fetch-");
}

/**
 * The `node` binary of a Node major: this process's when it is that major, else the npm registry's `node` package
 * installed once into .tmp/node-<major> (as scripts/test-other-nodes.sh does).
 */
export function nodeBinary(major) {
  if (process.versions.node.split(".")[0] === String(major)) return process.execPath;
  const prefix = join(ROOT, ".tmp", `node-${major}`);
  const binary = join(prefix, "node_modules", ".bin", "node");
  if (!existsSync(binary)) {
    process.stderr.write(`  installing node@${major} into .tmp/node-${major} (npm registry)\n`);
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const args = [
      "install",
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--silent",
      "--prefix",
      prefix,
      `node@${major}`,
    ];
    const done = spawnSync(npm, args, { stdio: "inherit" });
    if (done.status !== 0 || !existsSync(binary)) throw new Error(`could not install node@${major}`);
  }
  return binary;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `calls` calls of `run`, at most `concurrency` at a time (1: one after another). */
export async function runCalls(run, calls, concurrency = 1) {
  let started = 0;
  const worker = async () => {
    while (started++ < calls) await run();
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export function min(values) {
  return Math.min(...values);
}

/** Parses `--name=value` and `--flag` arguments. */
export function parseArgs(argv = process.argv.slice(2)) {
  const args = {};
  for (const arg of argv) {
    const match = /^--([^=]+)(?:=(.*))?$/.exec(arg);
    if (match) args[match[1]] = match[2] ?? true;
  }
  return args;
}

export const fmt = {
  us: (v) => `${v.toFixed(1)} µs`,
  ms: (v) => `${v.toFixed(1)} ms`,
  ratio: (v) => `${v.toFixed(2)}×`,
  kb: (bytes) => `${(bytes / 1000).toFixed(1)} KB`,
  bytes: (bytes) => `${bytes.toLocaleString("en-US")} B`,
  mb: (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`,
  int: (v) => Math.round(v).toLocaleString("en-US"),
};

/** A Markdown table (readable in a terminal too). */
export function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  return [line(headers), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

/**
 * Starts a child Node process that prints one JSON line once ready (e.g. `{ "url": ... }`), and resolves to that
 * object plus a `stop()` function.
 */
export function startChild(script, args = [], nodeFlags = []) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, script, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let buffer = "";
    const onData = (chunk) => {
      buffer += chunk;
      const newline = buffer.indexOf("\n");
      if (newline === -1) return;
      child.stdout.off("data", onData);
      child.stdout.resume();
      const info = JSON.parse(buffer.slice(0, newline));
      resolvePromise({
        ...info,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    };
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
}

/** Runs a child Node script to completion and parses the JSON it prints last on stdout. */
export function runJson(script, args = [], nodeFlags = [], node = process.execPath) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node, [...nodeFlags, script, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`${script} exited with ${code}`));
      const lines = out.trim().split("\n");
      try {
        resolvePromise(JSON.parse(lines.at(-1)));
      } catch (error) {
        reject(new Error(`${script} printed no JSON: ${out.slice(-500)}`, { cause: error }));
      }
    });
  });
}

/** True when this module is the process's entry script. */
export function isMain(importMetaUrl) {
  return process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(importMetaUrl);
}

/**
 * Bytes of heap one call allocates (garbage included): the growth of `heapUsed` over a sample of calls that no garbage
 * collection interrupted (Node reports each collection as a `gc` performance entry; a sample in which one arrived is
 * dropped), median of the samples. No collection is forced: a forced one may drop compiled code that the next calls
 * then rebuild. Unlike CPU time on a shared machine, this is the same from run to run within a few per cent.
 */
export async function allocatedPerCall(run, { samples = 9, calls = 20 } = {}) {
  let collections = 0;
  const observer = new PerformanceObserver((list) => {
    collections += list.getEntries().length;
  });
  observer.observe({ entryTypes: ["gc"] });
  // A collection's entry is delivered on a later turn of the event loop: wait for it before judging a sample.
  const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
  const values = [];
  try {
    for (let attempt = 0; values.length < samples && attempt < samples * 8; attempt++) {
      await settle();
      const before = collections;
      const heap = process.memoryUsage().heapUsed;
      for (let i = 0; i < calls; i++) await run();
      const grown = process.memoryUsage().heapUsed - heap;
      await settle();
      if (collections === before) values.push(grown / calls);
    }
  } finally {
    observer.disconnect();
  }
  return values.length > 0 ? median(values) : undefined;
}
