// Checks the built package the way a user gets it: publint and arethetypeswrong on the package, then the packed
// tarball installed into a clean consumer, imported from ESM and required from CJS, with `instanceof` on errors, one
// call through the mock, and an import that must not load Node's fetch implementation.
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(import.meta.dirname, "..");
const consumer = join(root, ".tmp", "consumer");
const run = (command, args, cwd = root) =>
  execFileSync(command, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
const step = (title) => console.log(`== ${title}`);

// publint and arethetypeswrong are tools installed apart from the root (`tools/package.json`), as `npm test` does.
const tool = (name) => {
  const bin = join(root, "tools", "node_modules", ".bin", name);
  if (!existsSync(bin))
    throw new Error(`${name} is not installed: run \`npm run tools:install\` (npm ci --prefix tools)`);
  return bin;
};

step("publint");
run(tool("publint"), ["--strict"]);

step("arethetypeswrong");
// Profile node16: the package needs Node >= 20, so TypeScript's pre-`exports` node10 resolution does not apply.
run(tool("attw"), ["--pack", ".", "--profile", "node16", "--no-emoji", "--no-color"]);

step("npm pack into a clean consumer");
mkdirSync(join(root, ".tmp"), { recursive: true });
const packed = run("npm", ["pack", "--silent", "--pack-destination", ".tmp"]).trim().split("\n").pop();
const tarball = join(root, ".tmp", packed);
rmSync(consumer, { recursive: true, force: true });
mkdirSync(consumer, { recursive: true });
writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true }));
const msw = JSON.parse(readFileSync(join(root, "node_modules/msw/package.json"), "utf8")).version;
run(
  "npm",
  ["install", "--no-audit", "--no-fund", "--prefer-offline", "--silent", tarball, `msw@${msw}`],
  consumer,
);

// Both consumers: build a client, read its mode, and check that a thrown error is an instance of the classes the
// same entry exports (a dual-package hazard would break this); then make one call through the in-process mock, which
// loads ky (the ESM build keeps it in a chunk loaded with the first request, so the tarball must carry it).
const probe = (load) => `
${load}
const client = new MerchantPaymentsClient({ apiKey: "mock_test_abc", baseUrl: "http://127.0.0.1:1" });
if (client.mode !== "test") throw new Error("mode should be test");
let caught;
try { new MerchantPaymentsClient({ apiKey: "mock_test_abc", baseUrl: "http://example.com" }); } catch (e) { caught = e; }
if (!(caught instanceof ConfigurationError) || !(caught instanceof MerchantPaymentsError)) throw new Error("instanceof failed");
if (typeof testing.createMockService !== "function") throw new Error("testing entry is missing createMockService");
const mock = testing.createMockService();
const viaMock = new MerchantPaymentsClient({ apiKey: mock.keys.test, baseUrl: mock.baseUrl, fetch: mock.fetch });
viaMock.merchants.list().then((list) => {
  if (!Array.isArray(list.data)) throw new Error("merchants.list did not answer");
  console.log("ok");
});
`;
writeFileSync(
  join(consumer, "esm.mjs"),
  probe(`import { MerchantPaymentsClient, ConfigurationError, MerchantPaymentsError } from "merchant-payments";
import * as testing from "merchant-payments/testing";`),
);
writeFileSync(
  join(consumer, "cjs.cjs"),
  probe(`const { MerchantPaymentsClient, ConfigurationError, MerchantPaymentsError } = require("merchant-payments");
const testing = require("merchant-payments/testing");`),
);
// Importing the SDK alone loads none of its dependencies, each loaded with the first call that needs it: ky (whose
// module feature-detects fetch, which loads Node's undici: about 25 ms of a cold start), zod (about 90 modules,
// some 35 ms) and uuid (about 10 ms). ESM: a resolve hook refuses them; CJS: require's cache must not hold them.
const DEPENDENCY_RE = "/^(ky|zod|uuid)(\\/|$)/";
const noFetchYet = `if (process.moduleLoadList.some((name) => name.includes("undici"))) throw new Error("undici loaded");
console.log("ok");`;
writeFileSync(
  join(consumer, "refuse-dependencies.mjs"),
  `export async function resolve(specifier, context, next) {
  if (${DEPENDENCY_RE}.test(specifier)) throw new Error(\`importing the SDK loaded \${specifier}\`);
  return next(specifier, context);
}`,
);
writeFileSync(
  join(consumer, "refuse-dependencies-register.mjs"),
  `import { register } from "node:module";\nregister("./refuse-dependencies.mjs", import.meta.url);`,
);
writeFileSync(join(consumer, "cold.mjs"), `import "merchant-payments";\n${noFetchYet}`);
writeFileSync(
  join(consumer, "cold.cjs"),
  `require("merchant-payments");
const loaded = Object.keys(require.cache).filter((file) => /node_modules[\\\\/](ky|zod|uuid)[\\\\/]/.test(file));
if (loaded.length > 0) throw new Error(\`requiring the SDK loaded \${loaded[0]}\`);
${noFetchYet}`,
);
const NODE_ARGS = { "cold.mjs": ["--import", "./refuse-dependencies-register.mjs"] };
for (const file of ["esm.mjs", "cjs.cjs", "cold.mjs", "cold.cjs"]) {
  step(`import from ${file}`);
  const out = run(process.execPath, [...(NODE_ARGS[file] ?? []), file], consumer).trim();
  if (out !== "ok") throw new Error(`${file} printed ${out}`);
  console.log(out);
}
step("the merchant-payments-mock bin answers");
await checkMockCli();
step("merchant-payments/testing without msw (ESM, CJS, TypeScript node16 and bundler)");
checkTestingWithoutMsw();
await checkDeclaredDependencies(tarball);
await checkFetchBuild();
rmSync(tarball, { force: true });
// The consumer lives in the system's temp folder (outside the repository, so that Node cannot fall back to the
// repository's node_modules). It goes with this check, unless CI keeps it for the other Node versions
// (KEEP_PACKED_CONSUMER=1; scripts/test-other-nodes.sh removes it when done).
if (process.env.KEEP_PACKED_CONSUMER !== "1") removeConsumerDeps();
console.log("package check passed");

function removeConsumerDeps() {
  const link = join(root, ".tmp", "consumer-deps");
  if (existsSync(link)) rmSync(realpathSync(link), { recursive: true, force: true });
  rmSync(link, { recursive: true, force: true });
}

/** Starts the installed CLI on a free port, asks it for the default merchant with the printed key, and stops it. */
async function checkMockCli() {
  const bin = join(consumer, "node_modules", ".bin", "merchant-payments-mock");
  const child = spawn(bin, ["--port", "0"], { cwd: consumer, stdio: ["ignore", "pipe", "inherit"] });
  try {
    let out = "";
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the CLI printed no URL: ${out}`)), 15_000);
      child.stdout.on("data", (chunk) => {
        out += chunk;
        const match = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[0]);
        }
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 200)); // let it print the keys too
    const key = /mock_test_[A-Za-z0-9_]+/.exec(out)?.[0];
    const response = await fetch(`${url}/v1/merchants`, { headers: { "Api-Key": key ?? "" } });
    if (response.status !== 200) throw new Error(`the CLI's mock answered ${response.status}`);
    console.log(`ok (${url})`);
  } finally {
    child.kill("SIGTERM");
  }
}

/**
 * The mock's server, CLI, model and controls load without msw: a second consumer gets the tarball alone, then
 * imports `merchant-payments/testing` from ESM and CJS (starting a server and calling it), and type-checks an import
 * with `skipLibCheck: false` under `node16` (ESM and CommonJS) and `bundler` resolution. Only
 * `merchant-payments/testing/msw` may name msw, in its code or its type declarations.
 */
function checkTestingWithoutMsw() {
  // Outside the project: from inside it, Node would find the project's own node_modules/msw by walking up.
  const bare = mkdtempSync(join(tmpdir(), "merchant-payments-without-msw-"));
  writeFileSync(join(bare, "package.json"), JSON.stringify({ name: "consumer-without-msw", private: true }));
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--silent", tarball], bare);
  const mswVisible = `try { require.resolve("msw"); console.log("found"); } catch { console.log("absent"); }`;
  if (run(process.execPath, ["-e", mswVisible], bare).trim() !== "absent") {
    throw new Error("msw can be resolved from the consumer: the check would prove nothing");
  }
  const probe = `const server = await testing.startMockServer();
const res = await fetch(server.url + "/v1/merchants", { headers: { "Api-Key": server.service.keys.test } });
await server.close();
const inProcess = testing.createMockService();
const viaFetch = await inProcess.fetch(inProcess.baseUrl + "/v1/merchants", { headers: { "Api-Key": inProcess.keys.test } });
if (res.status !== 200 || viaFetch.status !== 200) throw new Error("the mock did not answer");
console.log("ok");`;
  writeFileSync(join(bare, "server.mjs"), `import * as testing from "merchant-payments/testing";\n${probe}`);
  writeFileSync(
    join(bare, "server.cjs"),
    `const testing = require("merchant-payments/testing");\n(async () => {\n${probe}\n})().catch((e) => { console.error(e); process.exit(1); });`,
  );
  for (const file of ["server.mjs", "server.cjs"]) {
    const out = run(process.execPath, [file], bare).trim();
    if (out !== "ok") throw new Error(`${file} printed ${out}`);
    console.log(`ok (${file})`);
  }
  const dist = join(bare, "node_modules", "merchant-payments", "dist");
  for (const dir of [dist, join(dist, "testing")]) {
    for (const name of readdirSync(dir)) {
      if (name.startsWith("msw.") || !/\.d\.c?ts$/.test(name)) continue;
      if (/from ["']msw/.test(readFileSync(join(dir, name), "utf8"))) throw new Error(`${name} imports msw`);
    }
  }
  const source = `import { startMockServer, type MockMode, type MockServer } from "merchant-payments/testing";
export const start: () => Promise<MockServer> = () => startMockServer();
export const mode: MockMode = "test";
`;
  const projects = [
    { name: "node16-esm", type: "module", module: "node16", moduleResolution: "node16" },
    { name: "node16-cjs", type: "commonjs", module: "node16", moduleResolution: "node16" },
    { name: "bundler", type: "module", module: "esnext", moduleResolution: "bundler" },
  ];
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  for (const { name, type, module, moduleResolution } of projects) {
    const dir = join(bare, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type }));
    writeFileSync(join(dir, "index.ts"), source);
    const compilerOptions = {
      module,
      moduleResolution,
      target: "es2022",
      lib: ["es2022", "dom"],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["index.ts"] }));
    run(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], dir);
    console.log(`ok (TypeScript ${name}, skipLibCheck: false)`);
  }
  rmSync(bare, { recursive: true, force: true });
}

/**
 * ky, zod and uuid are runtime dependencies, not inlined: from the packed tarball, an app that has its own zod gets
 * one zod, `npm ls` (hence `npm audit`) sees all three, a CommonJS and an ES module consumer each make one call
 * through the mock (the msw-free CLI, over loopback HTTP), and that call fails once ky is taken out of node_modules
 * (it is loaded from there, not from dist). The probes stay in .tmp/consumer-deps (a link to a temporary folder),
 * self-contained:
 * scripts/test-other-nodes.sh runs them on each supported Node.
 */
async function checkDeclaredDependencies(tarball) {
  step("declared dependencies: ky, zod and uuid come from node_modules");
  // Outside the repository: from inside it, Node would find the repository's own node_modules/ky as a fallback.
  const link = join(root, ".tmp", "consumer-deps");
  if (existsSync(link)) rmSync(realpathSync(link), { recursive: true, force: true });
  rmSync(link, { recursive: true, force: true });
  const dir = mkdtempSync(join(tmpdir(), "merchant-payments-consumer-"));
  symlinkSync(dir, link);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer-deps", private: true }));
  // The app's own zod, as most TypeScript backends have: the SDK must share it, not carry a second copy.
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--silent", tarball, "zod@4"], dir);

  const tree = JSON.parse(run("npm", ["ls", "ky", "zod", "uuid", "--all", "--json"], dir));
  const ours = tree.dependencies?.["merchant-payments"]?.dependencies ?? {};
  for (const name of ["ky", "zod", "uuid"]) {
    if (!ours[name]?.version) throw new Error(`npm ls does not see ${name} under merchant-payments`);
  }
  if (existsSync(join(dir, "node_modules", "merchant-payments", "node_modules", "zod"))) {
    throw new Error("merchant-payments installed a zod of its own beside the app's");
  }
  console.log(
    `ok: npm ls sees ky@${ours.ky.version}, zod@${ours.zod.version}, uuid@${ours.uuid.version}; one zod`,
  );

  writeDependencyProbes(dir);
  for (const file of ["esm.mjs", "cjs.cjs"]) {
    const out = run(process.execPath, [...noRequireEsm(), file], dir).trim();
    if (out !== "ok") throw new Error(`${file} printed ${out}`);
    console.log(`ok: ${file} made one call through the mock`);
  }

  // Without node_modules/ky the first call must fail: dist does not carry ky's code.
  const ky = join(dir, "node_modules", "ky");
  renameSync(ky, `${ky}.away`);
  try {
    for (const file of ["esm.mjs", "cjs.cjs"]) {
      let stderr = "";
      try {
        execFileSync(process.execPath, [file], { cwd: dir, stdio: "pipe" });
      } catch (error) {
        stderr = String(error.stderr);
      }
      if (!/Cannot find (package|module) 'ky'/.test(stderr)) {
        throw new Error(`${file} did not need node_modules/ky (is ky inlined into dist?): ${stderr}`);
      }
    }
  } finally {
    renameSync(`${ky}.away`, ky);
  }
  console.log("ok: without node_modules/ky the call fails (ky is not inlined)");
}

/**
 * esm.mjs and cjs.cjs: each loads the SDK's main entry only (no msw), checks that it resolves the app's zod, starts the
 * installed mock CLI on a free port, and lists the merchants through it with the printed test key.
 */
function writeDependencyProbes(dir) {
  writeFileSync(
    join(dir, "mock.cjs"),
    `const { spawn } = require("node:child_process");
const { join } = require("node:path");
/** Starts the installed mock CLI (msw-free) on a free port; resolves to { url, key, stop }. */
exports.startMock = () =>
  new Promise((resolve, reject) => {
    const cli = join(__dirname, "node_modules", "merchant-payments", "dist", "testing", "cli.js");
    const child = spawn(process.execPath, [cli, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
    const timer = setTimeout(() => { child.kill(); reject(new Error("the mock CLI printed no URL and key")); }, 15000);
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const url = /http:[/][/]127[.]0[.]0[.]1:[0-9]+/.exec(out)?.[0];
      const key = /mock_test_[A-Za-z0-9_]+/.exec(out)?.[0];
      if (url && key) {
        clearTimeout(timer);
        resolve({ url, key, stop: () => child.kill("SIGTERM") });
      }
    });
  });
`,
  );
  const body = `  if (sdkRequire.resolve("zod/mini") !== appRequire.resolve("zod/mini")) throw new Error("two copies of zod");
  const mock = await startMock();
  try {
    const client = new MerchantPaymentsClient({ apiKey: mock.key, baseUrl: mock.url });
    const list = await client.merchants.list();
    if (!Array.isArray(list.data) || list.data.length === 0) throw new Error("merchants.list did not answer");
    console.log("ok");
  } finally {
    mock.stop();
  }`;
  writeFileSync(
    join(dir, "esm.mjs"),
    `import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { MerchantPaymentsClient } from "merchant-payments";
import mockModule from "./mock.cjs";
const { startMock } = mockModule;
const sdkRequire = createRequire(fileURLToPath(import.meta.resolve("merchant-payments")));
const appRequire = createRequire(import.meta.url);
${body.replace(/^ {2}/gm, "")}
`,
  );
  writeFileSync(
    join(dir, "cjs.cjs"),
    `const { createRequire } = require("node:module");
const { MerchantPaymentsClient } = require("merchant-payments");
const { startMock } = require("./mock.cjs");
const sdkRequire = createRequire(require.resolve("merchant-payments"));
const appRequire = require;
(async () => {
${body}
})().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`,
  );
}

/** On a Node that can `require()` an ES module, switch that off: the CJS build must not rely on it (Node < 20.19). */
function noRequireEsm() {
  const flag = "--no-experimental-require-module";
  return process.allowedNodeEnvironmentFlags.has(flag) ? [flag] : [];
}

/**
 * The fetch build (export conditions bun, deno, workerd, worker, edge-light, browser) reaches no `node:` module: not
 * by a static import, a dynamic `import()` a bundler could hoist, or a `require()`, in ESM or CJS. Its whole module
 * graph in the installed package is read, and esbuild bundles it for workerd with Node's modules left unresolvable
 * (and zod's compiler left out: it generates code, which edge runtimes refuse).
 * Node itself still resolves the package to the Node build (the pooled `node:http` wire).
 */
async function checkFetchBuild() {
  step("the fetch build reaches no node: module; Node still gets the Node build");
  const installed = join(consumer, "node_modules", "merchant-payments");
  const { builtinModules } = await import("node:module");
  const builtins = new Set(builtinModules);
  for (const entry of ["dist/fetch/index.js", "dist/fetch/index.cjs"]) {
    const seen = new Set();
    const queue = [join(installed, entry)];
    while (queue.length > 0 && seen.size < 200) {
      const file = queue.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      const code = readFileSync(file, "utf8");
      const specifiers = [
        ...code.matchAll(/(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']([^"']+)["']/g),
      ].map((m) => m[1]);
      for (const specifier of specifiers) {
        if (specifier.startsWith("node:") || builtins.has(specifier)) {
          throw new Error(`${entry} reaches ${specifier} (in ${file})`);
        }
        if (specifier.startsWith(".")) queue.push(join(file, "..", specifier));
      }
    }
    console.log(`ok: ${entry} and its ${seen.size - 1} chunks import no node: module`);
  }
  const { build } = await import(pathToFileURL(join(root, "node_modules", "esbuild", "lib", "main.js")).href);
  writeFileSync(
    join(consumer, "worker.mjs"),
    'export { MerchantPaymentsClient } from "merchant-payments";\n',
  );
  // The consumer's entry bundled as an app's bundler would, for `platform` (and wrangler's conditions for workerd).
  const bundleText = async (platform, more = {}) => {
    const entryPoints = [join(consumer, "worker.mjs")];
    const options = {
      entryPoints,
      bundle: true,
      write: false,
      format: "esm",
      tsconfigRaw: {},
      logLevel: "silent",
    };
    const result = await build({ ...options, platform, ...more });
    return result.outputFiles[0].text;
  };
  const workerdBundle = await bundleText("neutral", {
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "browser"],
  });
  console.log("ok: esbuild bundles it for workerd without Node's modules");
  // zod's compiler (`new Function`, refused by edge runtimes) stays out: the fetch build reads with zod's interpreter.
  // It is recognised by a message of its own, which the Node build's bundle must hold (else the marker is stale).
  const compilerMarker = "generated code failed to evaluate";
  if (!(await bundleText("node")).includes(compilerMarker)) {
    throw new Error(
      `the Node build's bundle lacks zod's compiler message "${compilerMarker}": update the marker`,
    );
  }
  if (workerdBundle.includes(compilerMarker)) {
    throw new Error(
      "the workerd bundle holds zod's compiler (src/schemas/compiled-reader.ts in the fetch build?)",
    );
  }
  console.log("ok: and without zod's compiler (which the Node build's bundle holds)");
  const resolved = run(
    process.execPath,
    ["--input-type=module", "-e", 'console.log(import.meta.resolve("merchant-payments"))'],
    consumer,
  ).trim();
  const required = run(
    process.execPath,
    ["-e", 'console.log(require.resolve("merchant-payments"))'],
    consumer,
  ).trim();
  if (!resolved.endsWith("/dist/index.js") || !required.endsWith("/dist/index.cjs")) {
    throw new Error(`Node resolved ${resolved} and ${required}: the Node build was expected`);
  }
  console.log("ok: Node imports dist/index.js and requires dist/index.cjs");
}
