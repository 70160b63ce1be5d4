import { defineConfig, type Options } from "tsup";

const entry = {
  index: "src/index.ts",
  "testing/index": "src/testing/index.ts",
  // The only entry that imports msw: the mock's MSW handlers.
  "testing/msw": "src/testing/msw.ts",
};

/**
 * ky, zod and uuid are runtime dependencies, left external: an app resolves them from node_modules, shares zod with
 * its own, and sees them in `npm ls` and `npm audit`. ky is ESM-only and loaded with the first request through
 * `import("ky")`, which esbuild keeps as a real dynamic import in the CJS build too (target node20), so the CJS
 * build never `require`s an ES module (that needs Node 20.19 / 22.12).
 */
const shared: Options = {
  entry,
  dts: true,
  sourcemap: true,
  target: "node20",
  outDir: "dist",
  external: ["msw", "msw/node"],
};

export default defineConfig([
  { ...shared, format: ["esm"], clean: true },
  { ...shared, format: ["cjs"] },
  {
    // The mock service's CLI (merchant-payments-mock): ESM only, run by Node directly.
    entry: { "testing/cli": "src/testing/cli.ts" },
    format: ["esm"],
    sourcemap: true,
    target: "node20",
    outDir: "dist",
    banner: { js: "#!/usr/bin/env node" },
    external: ["msw", "msw/node"],
  },
]);
