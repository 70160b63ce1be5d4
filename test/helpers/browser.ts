/**
 * Finding the browser of the e2e tests, and saying plainly why they skip when there is none.
 *
 * The tests drive Debian's Chromium (`/usr/bin/chromium`, or `CHROMIUM_PATH`) through `playwright-core`,
 * which downloads no browser. Without one they skip with a message naming the fix, unless
 * `REQUIRE_BROWSER=1` or `CI=true`, where a missing browser fails the run.
 */
import { existsSync } from "node:fs";

/** The Chromium binary the tests launch. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** True when a missing browser must fail the run instead of skipping it: `REQUIRE_BROWSER=1`, or any CI (`CI=true`). */
export function browserRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.REQUIRE_BROWSER === "1" || env.CI === "true";
}

/** {@link browserRequired} for this run. */
export const REQUIRE_BROWSER = browserRequired();

/** Flags for a headless Chromium in a container: no sandbox, no GPU, nothing that phones home. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
];

/** Why the browser tests cannot run here, with the fix; null when Chromium is installed. */
export function missingBrowser(path: string = CHROMIUM_PATH): string | null {
  if (existsSync(path)) return null;
  return `Chromium is not installed at ${path}; install it with \`bash scripts/ensure-chromium.sh\` (or set CHROMIUM_PATH)`;
}

/**
 * What the suite does without a browser: null (run), or the reason it skips. The reason is printed once,
 * so a plain `vitest run` says why the browser tests did not run.
 */
export function browserSkipReason(
  suite: string,
  {
    path = CHROMIUM_PATH,
    requireBrowser = REQUIRE_BROWSER,
  }: { path?: string; requireBrowser?: boolean } = {},
): string | null {
  const missing = missingBrowser(path);
  if (missing === null || requireBrowser) return null;
  const reason = `${suite} skipped: ${missing}. Set REQUIRE_BROWSER=1 to make a missing browser fail.`;
  console.warn(reason);
  return reason;
}
