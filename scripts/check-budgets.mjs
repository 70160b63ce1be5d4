#!/usr/bin/env node
// Budgets of issue #6, checked by size and by count (never by timing), on the built package (`npm run build`):
//
// - bundle of `import { MerchantPaymentsClient }` (esbuild, minified, gzip -9): total ≤ 20 KB and own code ≤ 10 KB
//   (1 KB = 1000 bytes);
// - waitForFinal: no polled payment costs more status requests than ⌈elapsed / pollInMs⌉ + 1;
// - 10,000 concurrent watchers leave no timer or handle behind, and at most 1 MB of heap (100 B per watcher)
//   once they ended and the GC ran (measured over a second pass; see bench/watchers.mjs).
//
// Prints each budget with its measured value and exits 1 when one is exceeded.
//   node scripts/check-budgets.mjs [--watchers=10000] [--skip-watchers]
import { measureBundle } from "../bench/bundle.mjs";
import { fmt, parseArgs, runJson } from "../bench/lib/common.mjs";
import { measure as measurePolling } from "../bench/polling.mjs";

const KB = 1000;
const BUDGETS = {
  watcherHeapBytesPerWatcher: 100,
  bundleTotalBytes: 20 * KB,
  bundleOwnBytes: 10 * KB,
};

const args = parseArgs();
const results = [];
const record = (name, measured, limit, ok) => {
  results.push({ name, measured, limit, ok });
  process.stdout.write(`${ok ? "ok  " : "FAIL"}  ${name}: ${measured} (budget ${limit})\n`);
};

const bundle = await measureBundle();
for (const [name, bytes, limit] of [
  ["bundle total, min+gzip", bundle.total.gzipBytes, BUDGETS.bundleTotalBytes],
  ["bundle own code, min+gzip", bundle.own.gzipBytes, BUDGETS.bundleOwnBytes],
]) {
  const room = bytes <= limit ? `${fmt.bytes(limit - bytes)} to spare` : `${fmt.bytes(bytes - limit)} over`;
  record(name, `${fmt.kb(bytes)} (${fmt.bytes(bytes)}; ${room})`, `≤ ${fmt.kb(limit)}`, bytes <= limit);
}

const polling = await measurePolling({ payments: 30, pollInMs: 50, spreadMs: 800 });
record(
  "waitForFinal status requests per payment",
  `${polling.requestsPerPayment.toFixed(2)} (bound ${polling.boundPerPayment.toFixed(2)}); payments over the bound: ${polling.overBound}/${polling.payments}`,
  "every payment ≤ ⌈elapsed / pollInMs⌉ + 1",
  polling.overBound === 0,
);

if (!args["skip-watchers"]) {
  const watchers = Number(args.watchers ?? 10_000);
  const w = await runJson(
    new URL("../bench/watchers.mjs", import.meta.url).pathname,
    [`--watchers=${watchers}`, "--json"],
    ["--expose-gc"],
  );
  const limit = BUDGETS.watcherHeapBytesPerWatcher * watchers;
  record(
    `heap left after ${fmt.int(watchers)} watchers`,
    `${fmt.int(w.heapLeftBytes)} B (${(w.heapLeftBytes / watchers).toFixed(1)} B/watcher)`,
    `≤ ${fmt.int(limit)} B`,
    w.heapLeftBytes <= limit,
  );
  const left = Object.entries(w.leftResources);
  record(
    `timers/handles left after ${fmt.int(watchers)} watchers`,
    left.length === 0 ? "none" : left.map(([k, v]) => `${k}: ${v}`).join(", "),
    "none",
    left.length === 0,
  );
}

const failed = results.filter((r) => !r.ok);
process.stdout.write(
  failed.length === 0
    ? `\nAll ${results.length} budgets met.\n`
    : `\n${failed.length} of ${results.length} budgets exceeded: ${failed.map((r) => r.name).join("; ")}\n`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
