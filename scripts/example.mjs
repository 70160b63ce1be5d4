#!/usr/bin/env node
// Runs the demo or an example with one command from the repository root (`npm run demo`, `npm run example:express`,
// …): on a supported Node (brought into .tmp/node-24 when the machine's is older: scripts/supported-node.mjs), after
// installing the examples' own dependencies (examples/package.json) when they are missing or out of date. Every step
// that can take more than two seconds says what it does and, while it runs, how long it has been running.
//
// Stopping: Ctrl+C, or SIGTERM to npm. npm passes a signal only to its direct child, the shell of the script, and
// `sh -c` dies of SIGTERM without passing it on; so this launcher also stops its command when its parent goes away
// (its parent process id changes). The command (tsx, then the example's node) gets the signal and is waited for:
// the demo closes its servers and removes its database before this process exits.
//
// Written for any Node from 16 on, like supported-node.mjs: it runs before a supported Node is there.
//
//   node scripts/example.mjs <demo|express|hono|nextjs|worker|setup-merchant> [args...]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", process.platform === "win32" ? `${name}.cmd` : name);

/** What each name runs, from the repository root. */
const COMMANDS = {
  demo: (args) => [bin("tsx"), "examples/demo.ts", ...args],
  express: () => [bin("tsx"), "examples/run.ts", "express"],
  hono: () => [bin("tsx"), "examples/run.ts", "hono"],
  "setup-merchant": () => [bin("tsx"), "examples/run.ts", "setup-merchant"],
  worker: (args) => [bin("tsx"), "examples/worker.ts", ...args],
  // The route handlers, called as Next.js calls them, against the mock: the copy recipe is in examples/README.md.
  nextjs: () => [bin("vitest"), "run", "--project", "examples", "test/examples/nextjs.test.ts"],
};

const say = (line) => process.stderr.write(`merchant-payments: ${line}\n`);

/** Runs a step, with a line every 3 seconds while it runs; resolves with its exit status. */
function step(what, command, args, options) {
  const started = Date.now();
  say(`${what}…`);
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const ticker = setInterval(() => say(`  … ${what.toLowerCase()} (${seconds()} s)`), 3000);
  return new Promise((done) => {
    const child = spawn(command, args, { ...options, shell: process.platform === "win32" });
    child.on("error", (error) => {
      clearInterval(ticker);
      say(`could not start ${command}: ${error.message}`);
      done(127);
    });
    child.on("exit", (code) => {
      clearInterval(ticker);
      if (code === 0) say(`  done in ${seconds()} s`);
      done(code ?? 1);
    });
  });
}

/** True when examples/node_modules was installed from the current lockfile. */
function examplesInstalled() {
  const marker = join(root, "examples", "node_modules", ".package-lock.json");
  if (!existsSync(marker)) return false;
  const installedAt = statSync(marker).mtimeMs;
  return ["package.json", "package-lock.json"].every(
    (file) => statSync(join(root, "examples", file)).mtimeMs <= installedAt,
  );
}

const [name, ...args] = process.argv.slice(2);
const command = name === undefined ? undefined : COMMANDS[name];
if (command === undefined) {
  console.error(`usage: node scripts/example.mjs <${Object.keys(COMMANDS).join("|")}> [args...]`);
  process.exit(2);
}
if (!existsSync(bin("tsx"))) {
  say("the project's own dependencies are not installed: run `npm install` first.");
  process.exit(1);
}

// A supported Node: this one, or the one supported-node.mjs brings (it says so, with progress, while it installs).
const found = spawnSync(process.execPath, [join(root, "scripts", "supported-node.mjs"), "--bin-dir"], {
  stdio: ["ignore", "pipe", "inherit"],
  encoding: "utf8",
});
if (found.status !== 0) process.exit(found.status ?? 1);
const binDir = found.stdout.trim();
const env = { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ""}` };

if (!examplesInstalled()) {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const status = await step(
    "Installing the examples' dependencies into examples/node_modules (Express, Hono, Next.js, PGlite, pg; about 15 s the first time)",
    npm,
    ["install", "--prefix", "examples", "--no-audit", "--no-fund", "--loglevel=error"],
    { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (status !== 0) {
    say("the examples' install failed (see above); `npm ci --prefix examples` repeats it.");
    process.exit(status);
  }
}

const [program, ...programArgs] = command(args);
const child = spawn(program, programArgs, {
  cwd: root,
  env,
  stdio: "inherit",
  shell: process.platform === "win32",
});
// Pass a signal on, then wait for the command to end: it cleans up (servers, database folder) before exiting.
let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  child.kill(signal);
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stop(signal));
// SIGTERM to npm kills the script's shell, which does not pass it on: our parent process id then changes.
const parent = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid !== parent) stop("SIGTERM");
}, 250);
child.on("error", (error) => {
  say(`could not start ${program}: ${error.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  clearInterval(orphaned);
  if (signal && !stopping) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? (stopping ? 0 : 1));
});
