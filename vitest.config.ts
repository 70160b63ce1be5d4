import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Node 25 and later warn in every worker that touches `localStorage` (msw's cookie store probes it) without a storage
 * file. The flag goes to the workers alone: processes the tests spawn may run on a node that does not know it.
 */
const QUIET_WEBSTORAGE = process.allowedNodeEnvironmentFlags.has("--no-experimental-webstorage")
  ? ["--no-experimental-webstorage"]
  : [];

export default defineConfig({
  resolve: {
    // Examples import the package by name, as users would; resolve it to the sources (no build needed).
    alias: [
      {
        find: /^merchant-payments\/testing\/msw$/,
        replacement: fileURLToPath(new URL("./src/testing/msw.ts", import.meta.url)),
      },
      {
        find: /^merchant-payments\/testing$/,
        replacement: fileURLToPath(new URL("./src/testing/index.ts", import.meta.url)),
      },
      { find: /^merchant-payments$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
    ],
  },
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.test.ts"],
    testTimeout: 15_000,
    hookTimeout: 15_000,
    // Tests talk to MSW in process or to servers on 127.0.0.1 only.
    unstubEnvs: true,
    execArgv: QUIET_WEBSTORAGE,
    // Our tests read the service strictly: drift between the SDK, the mock and the document fails at once.
    env: { MERCHANT_PAYMENTS_RESPONSE_VALIDATION: "strict" },
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
  },
});
