import { fileURLToPath } from "node:url";
import { defineConfig, type Options } from "tsup";

/**
 * Source maps ship without `sourcesContent`: a stack trace under `--enable-source-maps` (or in an error tracker) still
 * names the SDK's own file, line and function (`src/core/transport.ts:205`), and the package does not carry a second
 * copy of every source file (2.3 MB of the 4.0 MB unpacked, before).
 */
const mapsWithoutSources: NonNullable<Options["esbuildOptions"]> = (options) => {
  options.sourcesContent = false;
};

const entry = {
  index: "src/index.ts",
  "testing/index": "src/testing/index.ts",
  // The only entry that imports msw: the mock's MSW handlers.
  "testing/msw": "src/testing/msw.ts",
};

/**
 * ky, zod and uuid are runtime dependencies, left external: an app resolves them from node_modules, shares zod with
 * its own, and sees them in `npm ls` and `npm audit`. ky and uuid are ES modules only; the CJS build loads them with
 * a dynamic `import()` (Node 22.12 and later could also `require()` them). `node:` prefixes stay: a runtime without
 * Node's modules (workerd without compatibility flags) then names the module it lacks.
 */
const shared: Options = {
  entry,
  dts: true,
  sourcemap: true,
  esbuildOptions: mapsWithoutSources,
  target: "node22",
  outDir: "dist",
  external: ["msw", "msw/node"],
  removeNodeProtocol: false,
};

/**
 * The fetch build (`dist/fetch/`), chosen by the `bun`, `deno`, `workerd`, `worker`, `edge-light` and `browser`
 * export conditions: the same source, with the Node build's default transport (`wire/node-default.ts`, which loads
 * `node:http`) replaced by the global `fetch` (`wire/fetch-default.ts`), and zod's compiled readers
 * (`schemas/compiled-reader.ts`) by its interpreter (`schemas/interpreted-reader.ts`: edge runtimes refuse generated
 * code). No `node:` module is in it at all, so no bundler can hoist one, and nothing of it calls zod's compiler;
 * `scripts/check-package.mjs` checks both. Its types are the Node build's (one API).
 */
const FETCH_DEFAULT = fileURLToPath(new URL("src/core/wire/fetch-default.ts", import.meta.url));
const INTERPRETED_READER = fileURLToPath(new URL("src/schemas/interpreted-reader.ts", import.meta.url));
const fetchBuild: Options = {
  entry: { index: "src/index.ts" },
  dts: false,
  sourcemap: true,
  esbuildOptions: mapsWithoutSources,
  target: "es2022",
  platform: "neutral",
  outDir: "dist/fetch",
  removeNodeProtocol: false,
  external: ["ky", "uuid", "zod", /^zod\//],
  esbuildPlugins: [
    {
      name: "fetch-build-modules",
      setup(build) {
        build.onResolve({ filter: /\/wire\/node-default\.js$/ }, () => ({ path: FETCH_DEFAULT }));
        build.onResolve({ filter: /\/compiled-reader\.js$/ }, () => ({ path: INTERPRETED_READER }));
      },
    },
  ],
};

export default defineConfig([
  { ...shared, format: ["esm"], clean: true },
  { ...shared, format: ["cjs"] },
  { ...fetchBuild, format: ["esm"] },
  { ...fetchBuild, format: ["cjs"] },
  {
    // The mock service's CLI (merchant-payments-mock) and the doctor (merchant-payments-doctor): ESM only, run by
    // Node directly.
    entry: { "testing/cli": "src/testing/cli.ts", "doctor/cli": "src/doctor/cli.ts" },
    format: ["esm"],
    sourcemap: true,
    esbuildOptions: mapsWithoutSources,
    target: "node22",
    outDir: "dist",
    removeNodeProtocol: false,
    banner: { js: "#!/usr/bin/env node" },
    external: ["msw", "msw/node"],
  },
]);
