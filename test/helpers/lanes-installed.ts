/**
 * Global setup of the projects whose tests load dependencies installed apart from the root's, so that the root
 * install stays light: `examples` (web frameworks, databases: `examples/package.json`) and `slow` (playwright-core
 * for the portal in Chromium: `tools/package.json`). Without them, stop at once with the command that installs
 * them, instead of one "cannot find package" per file.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

/** Each project's own install: the folder that holds it and the npm script that makes it. */
const LANES: Record<string, { folder: string; install: string }> = {
  examples: { folder: "examples", install: "npm run test:examples" },
  postgres: { folder: "examples", install: "npm run examples:install" },
  slow: { folder: "tools", install: "npm run tools:install" },
};

export default function lanesInstalled(project: TestProject): void {
  const lane = LANES[project.name];
  if (lane === undefined) return;
  const installed = fileURLToPath(
    new URL(`../../${lane.folder}/node_modules/.package-lock.json`, import.meta.url),
  );
  if (!existsSync(installed)) {
    throw new Error(
      `The ${project.name} tests need ${lane.folder}/'s own dependencies: run \`npm ci --prefix ${lane.folder}\` (or \`${lane.install}\`).`,
    );
  }
}
