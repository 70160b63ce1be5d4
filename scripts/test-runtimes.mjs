#!/usr/bin/env node
// Runs the quickstart flow (scripts/runtimes/lane.mjs) on every runtime merchants deploy to, against the mock server
// started here under Node: Bun, Deno (without --allow-env), workerd (no compatibility flags, compatibility date
// 2025-09-01), the edge-runtime VM, and a Next.js edge route handler. Each runtime comes from the npm registry into
// .tmp/runtimes (never the root node_modules), at the versions of scripts/runtimes/package.json, and runs the packed
// package (npm pack, unpacked into .tmp/runtimes/node_modules) through its own export conditions.
//
//   node scripts/supported-node.mjs node scripts/test-runtimes.mjs [--no-build] [lane ...]
//
// Prints one line per lane; exits 1 when any lane fails. Every child process is bounded in time.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TMP = join(ROOT, ".tmp", "runtimes");
const BIN = join(TMP, "node_modules", ".bin");
const LANE_MS = 90_000;
const NEXT_BUILD_MS = 300_000;
const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith("--"));

/** Runs a command; resolves with its output, rejects on a non-zero exit or when `timeoutMs` passes. */
function run(command, commandArgs, { cwd = TMP, timeoutMs = LANE_MS, env = process.env } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, commandArgs, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(out);
      else
        reject(
          new Error(`${command} ${commandArgs[0] ?? ""} ended with ${signal ?? code}: ${tail(err || out)}`),
        );
    });
  });
}

/** A long-running child (a server): returns it and a `stop`. */
function serve(command, commandArgs, options = {}) {
  const child = spawn(command, commandArgs, { cwd: TMP, stdio: ["ignore", "pipe", "pipe"], ...options });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const killer = setTimeout(() => child.kill("SIGKILL"), LANE_MS);
  return {
    log: () => log,
    stop: () => {
      clearTimeout(killer);
      child.kill("SIGKILL");
    },
  };
}

function tail(text) {
  return text.trim().split("\n").slice(-6).join(" | ").slice(0, 800);
}

async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/** POSTs the config to a lane server once it listens (bounded: `LANE_MS`). */
async function postWhenUp(url, config, server) {
  const until = Date.now() + LANE_MS;
  for (let i = 0; Date.now() < until && i < 600; i++) {
    try {
      const response = await fetch(url, { method: "POST", body: JSON.stringify(config) });
      const text = await response.text();
      if (response.status === 200) return JSON.parse(text);
      if (response.status !== 404 && response.status !== 503)
        throw new Error(`${response.status}: ${tail(text)}`);
    } catch (error) {
      if (!String(error?.cause?.code ?? "").startsWith("ECONNREFUSED")) throw error;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no answer within ${LANE_MS} ms: ${tail(server.log())}`);
}

/** Installs the runtimes once per version list (`.installed` holds the list's hash). */
async function install() {
  mkdirSync(TMP, { recursive: true });
  const manifest = readFileSync(join(ROOT, "scripts", "runtimes", "package.json"), "utf8");
  const hash = createHash("sha256").update(manifest).digest("hex");
  const stamp = join(TMP, ".installed");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === hash) return "cached";
  writeFileSync(join(TMP, "package.json"), manifest);
  await run("npm", ["install", "--prefix", TMP, "--no-audit", "--no-fund"], {
    cwd: ROOT,
    timeoutMs: 600_000,
  });
  writeFileSync(stamp, hash);
  return "installed";
}

/** Builds, packs and unpacks the package into .tmp/runtimes/node_modules/merchant-payments, as an install would. */
async function packPackage() {
  if (!args.includes("--no-build")) await run("npm", ["run", "build"], { cwd: ROOT, timeoutMs: 300_000 });
  const packed = JSON.parse(await run("npm", ["pack", "--json", "--pack-destination", TMP], { cwd: ROOT }));
  const tarball = join(TMP, packed[0].filename);
  const target = join(TMP, "node_modules", "merchant-payments");
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  await run("tar", ["-xzf", tarball, "-C", target, "--strip-components=1"]);
  rmSync(tarball);
  // The repository's tsconfig maps the package name to src/: Bun and Next read the nearest one, so .tmp/runtimes
  // has its own, empty, and each runtime resolves the package as an app would, from node_modules.
  writeFileSync(join(TMP, "jsconfig.json"), '{ "compilerOptions": {} }\n');
  rmSync(join(TMP, "lanes"), { recursive: true, force: true });
  cpSync(join(ROOT, "scripts", "runtimes"), join(TMP, "lanes"), { recursive: true });
}

/** Bundles a lane file as a bundler on that platform would: with its export conditions. */
async function bundle(entry, outfile, conditions, format) {
  const { build } = await import(pathToFileURL(join(ROOT, "node_modules", "esbuild", "lib", "main.js")).href);
  await build({
    entryPoints: [join(TMP, "lanes", entry)],
    outfile: join(TMP, outfile),
    bundle: true,
    format,
    globalName: format === "iife" ? "lane" : undefined,
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions,
    target: "es2022",
    logLevel: "error",
    tsconfigRaw: {}, // not the repository's: its paths map the package name to src/
  });
}

function checkResult(result, expectFetchBuild) {
  const failed = result.steps.filter((s) => !s.ok);
  if (expectFetchBuild && result.resolved !== undefined && !result.resolved.includes("/dist/fetch/")) {
    failed.push({ name: "export condition", error: `resolved ${result.resolved}` });
  }
  if (failed.length > 0) throw new Error(failed.map((s) => `${s.name}: ${s.error}`).join("; "));
  return `${result.steps.length} steps`;
}

const LANES = {
  async bun(config) {
    const version = (await run(join(BIN, "bun"), ["--version"])).trim();
    const out = await run(join(BIN, "bun"), ["run", "lanes/run-cli.mjs", JSON.stringify(config)]);
    return {
      version: `Bun ${version}`,
      detail: checkResult(JSON.parse(out.trim().split("\n").at(-1)), true),
    };
  },
  async deno(config) {
    const version = (await run(join(BIN, "deno"), ["--version"])).split("\n")[0];
    // No --allow-env: the client must build and run without reading the environment.
    const env = { ...process.env, DENO_DIR: join(TMP, ".deno"), DENO_NO_UPDATE_CHECK: "1" };
    const flags = [
      "run",
      "--allow-net=127.0.0.1",
      "--no-prompt",
      "lanes/run-cli.mjs",
      JSON.stringify(config),
    ];
    const out = await run(join(BIN, "deno"), flags, { env });
    return { version, detail: checkResult(JSON.parse(out.trim().split("\n").at(-1)), true) };
  },
  async workerd(config) {
    const version = (await run(join(BIN, "workerd"), ["--version"])).trim();
    mkdirSync(join(TMP, "workerd"), { recursive: true });
    await bundle("worker.mjs", "workerd/worker.js", ["workerd", "worker", "browser"], "esm");
    const port = await freePort();
    writeFileSync(join(TMP, "workerd", "config.capnp"), workerdConfig(port));
    const server = serve(join(BIN, "workerd"), ["serve", join(TMP, "workerd", "config.capnp")]);
    try {
      const result = await postWhenUp(`http://127.0.0.1:${port}/`, config, server);
      return { version: `${version}, compatibility date 2025-09-01, no flags`, detail: checkResult(result) };
    } finally {
      server.stop();
    }
  },
  async "edge-runtime"(config) {
    const pkg = JSON.parse(readFileSync(join(TMP, "node_modules", "edge-runtime", "package.json"), "utf8"));
    await bundle("worker.mjs", "edge/lane.js", ["edge-light", "worker", "browser"], "iife");
    const code = [
      `const { EdgeRuntime } = await import(${JSON.stringify(pathToFileURL(join(TMP, "node_modules", "edge-runtime", "dist", "index.js")).href)});`,
      `const initialCode = (await import("node:fs")).readFileSync(${JSON.stringify(join(TMP, "edge", "lane.js"))}, "utf8");`,
      "const runtime = new EdgeRuntime({ initialCode });",
      `const text = await runtime.evaluate(${JSON.stringify(`lane.default.fetch(new Request("http://lane/", { method: "POST", body: ${JSON.stringify(JSON.stringify(config))} })).then((r) => r.text())`)});`,
      "console.log(text);",
    ].join("\n");
    const out = await run(process.execPath, ["--input-type=module", "-e", code]);
    return {
      version: `edge-runtime ${pkg.version}`,
      detail: checkResult(JSON.parse(out.trim().split("\n").at(-1))),
    };
  },
  async next(config) {
    const pkg = JSON.parse(readFileSync(join(TMP, "node_modules", "next", "package.json"), "utf8"));
    const route = join(TMP, "app", "api", "lane");
    mkdirSync(route, { recursive: true });
    const source = readFileSync(join(TMP, "lanes", "next-route.mjs"), "utf8");
    writeFileSync(join(route, "route.js"), source);
    writeFileSync(
      join(TMP, "next.config.mjs"),
      `export default { turbopack: { root: ${JSON.stringify(TMP)} }, outputFileTracingRoot: ${JSON.stringify(TMP)} };\n`,
    );
    const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
    const buildLog = await run(join(BIN, "next"), ["build"], { env, timeoutMs: NEXT_BUILD_MS });
    if (/Node\.js module is loaded|not supported in the Edge Runtime/i.test(buildLog)) {
      throw new Error(`next build warned: ${tail(buildLog)}`);
    }
    const port = await freePort();
    const server = serve(join(BIN, "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], { env });
    try {
      const result = await postWhenUp(`http://127.0.0.1:${port}/api/lane`, config, server);
      return { version: `Next.js ${pkg.version}, edge route handler`, detail: checkResult(result) };
    } finally {
      server.stop();
    }
  },
};

function workerdConfig(port) {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .lane),
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const lane :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "worker.js")],
  compatibilityDate = "2025-09-01",
  globalOutbound = "loopback",
);
`;
}

async function main() {
  const started = performance.now();
  const installed = await install();
  await packPackage();
  const prepared = Math.round(performance.now() - started);
  const { startMockServer } = await import(
    pathToFileURL(join(TMP, "node_modules", "merchant-payments", "dist", "testing", "index.js")).href
  );
  const mock = await startMockServer({ port: 0, pollInMs: 100 });
  const config = { baseUrl: mock.url, apiKey: mock.service.keys.test, merchantId: mock.service.merchantId };
  const names = Object.keys(LANES).filter((name) => only.length === 0 || only.includes(name));
  let failed = 0;
  try {
    const results = await Promise.all(
      names.map(async (name) => {
        const t0 = performance.now();
        try {
          const { version, detail } = await LANES[name](config);
          return `PASS ${name.padEnd(12)} ${version}: ${detail} (${Math.round(performance.now() - t0)} ms)`;
        } catch (error) {
          failed++;
          return `FAIL ${name.padEnd(12)} ${error.message}`;
        }
      }),
    );
    for (const line of results) console.log(line);
  } finally {
    await mock.close();
  }
  const total = Math.round(performance.now() - started);
  console.log(
    `runtimes: ${names.length - failed}/${names.length} lanes passed in ${total} ms (runtimes ${installed}, build and pack ${prepared} ms)`,
  );
  process.exitCode = failed === 0 ? 0 : 1;
}

await main();
