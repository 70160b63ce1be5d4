import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * On a Node older than the project supports, vitest starts and then fails every file at once (1,275 "×" lines, then
 * `Map.groupBy is not a function` on Node 20). Stop here instead, before any worker starts, and name the fix.
 */
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `merchant-payments: the tests need Node 22.12 or later, and this is Node ${process.version}.\n` +
      "  Run them through npm, which brings Node 24 once into .tmp/node-24:  npm run test:unit\n" +
      '  or put that Node first on PATH:  export PATH="$(node scripts/supported-node.mjs --bin-dir):$PATH"\n',
  );
  process.exit(1);
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Node 25 and later warn in every worker that touches `localStorage` (msw's cookie store probes it) without a storage
 * file. The flag goes to the workers alone: processes the tests spawn may run on a node that does not know it.
 */
const QUIET_WEBSTORAGE = process.allowedNodeEnvironmentFlags.has("--no-experimental-webstorage")
  ? ["--no-experimental-webstorage"]
  : [];

/**
 * Tests that need more than this process: a spawned process (the CLI), a browser (`*.e2e.test.ts`), the docs
 * toolchain (typedoc, the README's blocks compiled and run), thousands of concurrent calls (load), the budgets, a
 * heap measured in a process of its own (`--expose-gc`), or a bundle made by esbuild.
 * They run in `npm test` and CI, not in the one-minute loop.
 */
const SLOW = [
  "test/**/*.e2e.test.ts",
  "test/docs/**/*.test.ts",
  "test/core/errors-minified.test.ts",
  "test/model/bounded-copies.test.ts",
  "test/resources/polling-budget.test.ts",
  "test/resources/polling-load.test.ts",
  "test/testing/cli.test.ts",
  "test/doctor/cli.test.ts",
];

/**
 * Tests of the examples: they load the examples' own dependencies (web frameworks, databases), installed only for
 * this lane with `npm ci --prefix examples` (see `examples/package.json`), so the root install stays light.
 */
const EXAMPLES = ["test/examples/**/*.test.ts", "examples/**/*.test.ts"];

/**
 * The settlement workers' tests: the examples' dependencies and a real PostgreSQL server (`DATABASE_URL`, or one
 * started by `scripts/postgres.sh` for the run). `npm run test:postgres`; `.ci/run` runs them in a part of their own.
 */
const POSTGRES = ["test/examples/worker-*.test.ts"];

/** The packages a lane (a folder with its own `package.json` and install) holds, type packages left out. */
const dependenciesOf = (lane: string) =>
  Object.keys(
    (JSON.parse(readFileSync(here(`./${lane}/package.json`), "utf8")) as { devDependencies: object })
      .devDependencies,
  ).filter((name) => !name.startsWith("@types/"));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * Resolves these packages from a lane's own `node_modules`, for test files too, as Node does for the files under
 * the lane's folder: a test imports a framework directly (`next/server` beside the route handlers it calls), or a
 * tool the root does not install (`playwright-core`).
 */
const resolveFromLane = (lane: string, names = dependenciesOf(lane)) =>
  names.map((name) => ({
    find: new RegExp(`^${escapeRegExp(name)}(/.*)?$`),
    replacement: `${here(`./${lane}/node_modules/`)}${name}$1`,
  }));

/**
 * The SDK reads its settings from these variables when an option is left out. A shell that exported them (a
 * merchant's `.envrc`, the README's example commands) must not change what the tests see: they are removed before
 * any worker starts, and a test that needs one sets it with `vi.stubEnv`.
 */
for (const name of [
  "MERCHANT_PAYMENTS_API_KEY",
  "MERCHANT_PAYMENTS_BASE_URL",
  "MERCHANT_PAYMENTS_MERCHANT_ID",
  "MERCHANT_PAYMENTS_LOG",
]) {
  delete process.env[name];
}

/**
 * CI's msw 2 lane (`scripts/test-msw-2.sh`) installs msw 2 apart and names it here: every `msw` import (the tests'
 * and the mock's `merchant-payments/testing/msw`) then resolves to it instead of the project's msw 3.
 */
const MSW_PACKAGE_DIR = process.env.MSW_PACKAGE_DIR;
const MSW_ALIAS = MSW_PACKAGE_DIR
  ? [{ find: /^msw(\/.*)?$/, replacement: `${resolve(MSW_PACKAGE_DIR)}$1` }]
  : [];

export default defineConfig({
  resolve: {
    // Examples import the package by name, as users would; resolve it to the sources (no build needed).
    alias: [
      { find: /^merchant-payments\/testing\/msw$/, replacement: here("./src/testing/msw.ts") },
      { find: /^merchant-payments\/testing$/, replacement: here("./src/testing/index.ts") },
      { find: /^merchant-payments$/, replacement: here("./src/index.ts") },
      ...MSW_ALIAS,
    ],
  },
  test: {
    testTimeout: 15_000,
    hookTimeout: 15_000,
    // Tests talk to MSW in process or to servers on 127.0.0.1 only.
    unstubEnvs: true,
    execArgv: QUIET_WEBSTORAGE,
    // Our tests read the service strictly: drift between the SDK, the mock and the document fails at once.
    env: { MERCHANT_PAYMENTS_RESPONSE_VALIDATION: "strict" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...SLOW, ...EXAMPLES],
          typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
        },
      },
      {
        extends: true,
        // playwright-core, for the portal in Chromium, is one of the tools installed apart (`tools/package.json`).
        resolve: { alias: resolveFromLane("tools", ["playwright-core"]) },
        test: {
          name: "slow",
          include: SLOW,
          exclude: [...configDefaults.exclude],
          globalSetup: [here("./test/helpers/lanes-installed.ts")],
        },
      },
      {
        extends: true,
        resolve: { alias: resolveFromLane("examples") },
        test: {
          name: "examples",
          include: EXAMPLES,
          exclude: [...configDefaults.exclude, ...POSTGRES],
          globalSetup: [here("./test/helpers/lanes-installed.ts")],
        },
      },
      {
        extends: true,
        resolve: { alias: resolveFromLane("examples") },
        test: {
          name: "postgres",
          include: POSTGRES,
          exclude: [...configDefaults.exclude],
          globalSetup: [
            here("./test/helpers/lanes-installed.ts"),
            here("./test/examples/worker-postgres.ts"),
          ],
          // Worker processes and one server: the files run one after another.
          fileParallelism: false,
        },
      },
    ],
  },
});
