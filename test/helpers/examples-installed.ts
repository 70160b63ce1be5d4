/**
 * Global setup of the `examples` project: its tests load the examples' own dependencies, installed apart from the
 * root's. Without them, stop at once with the command that installs them, instead of one "cannot find package"
 * per file.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export default function examplesInstalled(): void {
  const installed = fileURLToPath(new URL("../../examples/node_modules/.package-lock.json", import.meta.url));
  if (!existsSync(installed)) {
    throw new Error(
      "The examples' dependencies are not installed: run `npm ci --prefix examples` (or `npm run test:examples`).",
    );
  }
}
