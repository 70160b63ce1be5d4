import { defineConfig } from "tsup";

const entry = {
  index: "src/index.ts",
  "testing/index": "src/testing/index.ts",
};

export default defineConfig([
  {
    // ESM: dependencies stay external; Node resolves ky, zod and uuid from node_modules.
    entry,
    format: ["esm"],
    dts: true,
    sourcemap: true,
    target: "node20",
    clean: true,
    outDir: "dist",
    external: ["msw", "msw/node"],
  },
  {
    // CJS: ky is ESM-only, and Node 20 cannot require() ESM, so the CJS build bundles it.
    entry,
    format: ["cjs"],
    dts: true,
    sourcemap: true,
    target: "node20",
    outDir: "dist",
    noExternal: ["ky"],
    external: ["msw", "msw/node"],
  },
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
