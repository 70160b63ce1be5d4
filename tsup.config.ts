import { defineConfig, type Options } from "tsup";

const entry = {
  index: "src/index.ts",
  "testing/index": "src/testing/index.ts",
  // The only entry that imports msw: the mock's MSW handlers.
  "testing/msw": "src/testing/msw.ts",
};

/**
 * The runtime code of ky and zod is bundled, tree-shaken, into each build. Loading them from node_modules
 * meant ~110 module files per cold start (zod/mini alone is 92), and ky is ESM-only, which a CommonJS build on
 * Node 20 cannot require. zod stays a dependency: the type declarations refer to its types.
 */
const shared: Options = {
  entry,
  dts: true,
  sourcemap: true,
  target: "node20",
  outDir: "dist",
  noExternal: ["ky", "zod"],
  external: ["msw", "msw/node"],
  // ky, which the transport imports with its first request (see src/core/transport.ts), is a chunk of its own.
  esbuildOptions(options) {
    options.chunkNames = "chunks/[name]-[hash]";
  },
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
    noExternal: ["ky", "zod"],
    external: ["msw", "msw/node"],
  },
]);
