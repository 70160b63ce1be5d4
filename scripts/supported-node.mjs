#!/usr/bin/env node
// Runs a command on a supported Node (22.12 or later). The project's own commands (`npm test`, `npm run demo`,
// `.ci/run`) go through here, so that they work on a machine whose `node` is older (Node 20 reached end of life on
// 2026-04-30 and is still the `node` of some machines): then a Node 24 comes from the npm registry's `node` package,
// installed once into .tmp/node-24, and goes first on the command's PATH, so `npm`, `npx` and every `node` the
// command starts run on it. On Node 22.12 or later nothing is installed and the command runs as it is.
//
// Written for any Node from 16 on: it is the one file that runs before a supported Node is there.
//
//   node scripts/supported-node.mjs <command> [args...]   runs the command
//   node scripts/supported-node.mjs --bin-dir             prints the folder to put first on PATH (for shell scripts)
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const MINIMUM = [22, 12];
const BROUGHT_MAJOR = "24";
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** True when this `node` is a supported one. */
function isSupported(version) {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  return major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1]);
}

/** Runs npm to install the brought Node, with a line every 3 seconds while it downloads; resolves with its status. */
function installNode(prefix) {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const args = ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", prefix];
  const started = Date.now();
  const ticker = setInterval(
    () =>
      console.error(
        `merchant-payments:   … downloading Node ${BROUGHT_MAJOR} (${Math.round((Date.now() - started) / 1000)} s)`,
      ),
    3000,
  );
  return new Promise((done) => {
    const child = spawn(npm, [...args, `node@${BROUGHT_MAJOR}`], {
      stdio: ["ignore", "ignore", "inherit"],
      shell: process.platform === "win32",
    });
    child.on("error", () => done(1));
    child.on("exit", (code) => {
      clearInterval(ticker);
      if (code === 0)
        console.error(
          `merchant-payments:   Node ${BROUGHT_MAJOR} ready in ${Math.round((Date.now() - started) / 1000)} s`,
        );
      done(code ?? 1);
    });
  });
}

/** The folder of a supported `node`: this one's, or the brought one's (installed on first use). */
async function supportedBinDir() {
  if (isSupported(process.version)) return dirname(process.execPath);
  const prefix = join(root, ".tmp", `node-${BROUGHT_MAJOR}`);
  const binDir = join(prefix, "node_modules", ".bin");
  if (!existsSync(join(binDir, "node"))) {
    console.error(
      `merchant-payments: this machine's Node is ${process.version}; the project needs ${MINIMUM.join(".")} or later. ` +
        `Installing Node ${BROUGHT_MAJOR} from the npm registry's "node" package into .tmp/node-${BROUGHT_MAJOR} (once: a download of about 30 MB).`,
    );
    const status = await installNode(prefix);
    if (status !== 0 || !existsSync(join(binDir, "node"))) {
      console.error(
        `merchant-payments: could not install node@${BROUGHT_MAJOR}; install Node 22.12 or later.`,
      );
      process.exit(1);
    }
  }
  return binDir;
}

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  console.error("usage: node scripts/supported-node.mjs <command> [args...] | --bin-dir");
  process.exit(2);
}
const binDir = await supportedBinDir();
if (command === "--bin-dir") {
  console.log(binDir);
  process.exit(0);
}

const env = { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ""}` };
const child = spawn(command, args, { stdio: "inherit", env, shell: process.platform === "win32" });
// A signal to this process (Ctrl-C, a SIGTERM from a supervisor or a test) reaches the command, which then ends as
// it would alone (the demo's --serve removes its database on SIGTERM).
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("error", (error) => {
  console.error(`merchant-payments: could not start ${command}: ${error.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
