import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 15_000,
    hookTimeout: 15_000,
    // Tests talk to MSW in process or to servers on 127.0.0.1 only.
    unstubEnvs: true,
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
  },
});
