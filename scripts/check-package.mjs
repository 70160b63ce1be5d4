// Checks the built package the way a user gets it: publint and arethetypeswrong on the package, then the packed
// tarball installed into a clean consumer, imported from ESM and required from CJS, with `instanceof` on errors, one
// call through the mock, and an import that must not load Node's fetch implementation.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const consumer = join(root, ".tmp", "consumer");
const run = (command, args, cwd = root) =>
  execFileSync(command, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
const step = (title) => console.log(`== ${title}`);

step("publint");
run("npx", ["--no-install", "publint", "--strict"]);

step("arethetypeswrong");
// Profile node16: the package needs Node >= 20, so TypeScript's pre-`exports` node10 resolution does not apply.
run("npx", ["--no-install", "attw", "--pack", ".", "--profile", "node16", "--no-emoji", "--no-color"]);

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
// Importing the SDK alone must not load Node's fetch implementation (about 25 ms of a cold start): ky, whose module
// feature-detects fetch, is loaded with the first request.
const noFetchYet = `if (process.moduleLoadList.some((name) => name.includes("undici"))) throw new Error("undici loaded");
console.log("ok");`;
writeFileSync(join(consumer, "cold.mjs"), `import "merchant-payments";\n${noFetchYet}`);
writeFileSync(join(consumer, "cold.cjs"), `require("merchant-payments");\n${noFetchYet}`);
for (const file of ["esm.mjs", "cjs.cjs", "cold.mjs", "cold.cjs"]) {
  step(`import from ${file}`);
  const out = run(process.execPath, [file], consumer).trim();
  if (out !== "ok") throw new Error(`${file} printed ${out}`);
  console.log(out);
}
step("the merchant-payments-mock bin answers");
await checkMockCli();
rmSync(tarball, { force: true });
console.log("package check passed");

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
    const key = /mock_test_\w+/.exec(out)?.[0];
    const response = await fetch(`${url}/v1/merchants`, { headers: { "Api-Key": key ?? "" } });
    if (response.status !== 200) throw new Error(`the CLI's mock answered ${response.status}`);
    console.log(`ok (${url})`);
  } finally {
    child.kill("SIGTERM");
  }
}
