/**
 * The README's test command on a machine whose `node` is older than the project supports (issue #28): vitest stops at
 * once with a message that names the fix, instead of failing every file (1,275 "×" lines, then
 * `Map.groupBy is not a function` on Node 20). Runs with the machine's own old Node when it has one
 * (`OLD_NODE=/path/to/node` chooses it), and is skipped where every `node` is supported.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function oldNode(): string | undefined {
  const candidates = [process.env.OLD_NODE, "/usr/local/bin/node", "/usr/bin/node", "/bin/node"];
  for (const path of candidates) {
    if (!path || !existsSync(path)) continue;
    const version = spawnSync(path, ["--version"], { encoding: "utf8" }).stdout.trim();
    const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
    if (major > 0 && (major < 22 || (major === 22 && minor < 12))) return path;
  }
  return undefined;
}

const node = oldNode();

describe.skipIf(node === undefined)(`npx vitest run --project unit on ${node ?? "an old node"}`, () => {
  it("stops before any test runs and names the fix", () => {
    const run = spawnSync(node!, [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--project", "unit"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, CI: "true" },
    });
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status).toBe(1);
    expect(output).toMatch(/the tests need Node 22\.12 or later/);
    expect(output).toContain("npm run test:unit");
    expect(output).not.toContain("×");
    expect(output).not.toMatch(/Map\.groupBy/);
  }, 90_000);
});
