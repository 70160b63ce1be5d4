// Bundle size of what `import { MerchantPaymentsClient } from "merchant-payments"` pulls into an app: esbuild
// (bundle, minify, platform node, ESM) on the built package, then gzip -9. "total" counts ky, zod and uuid as
// resolved from node_modules (ky, loaded with the first request, included); "own" is dist/ alone, its runtime
// dependencies external.
// Also breaks the minified output down by package, and measures openai's client the same way for comparison.
//
//   node bench/bundle.mjs [--json]
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { DIST, fmt, isMain, parseArgs, ROOT, requireDist, table } from "./lib/common.mjs";

/** 1 KB = 1000 bytes here and in the budgets (the reference sizes match this unit). */
export const KB = 1000;
/** The runtime dependencies (package.json `dependencies`): resolved from node_modules, never inlined into dist/. */
const DEPENDENCIES = ["ky", "zod", "zod/*", "uuid"];
/**
 * Optional peers, never counted: the app installs them if it wants them (`@opentelemetry/api`, imported only by a
 * client whose `telemetry` option is on), as it would for any library. Left external like a runtime dependency.
 */
const PEERS = ["@opentelemetry/api"];

async function bundle(contents, external = [], bySource = false) {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, sourcefile: "entry.mjs", loader: "js" },
    bundle: true,
    minify: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    metafile: true,
    external: [...external, ...PEERS],
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  const output = Object.values(result.metafile.outputs)[0];
  const byPackage = {};
  for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    const name = match ? match[1] : bySource ? file : "merchant-payments (own)";
    byPackage[name] = (byPackage[name] ?? 0) + bytesInOutput;
  }
  return { code, minBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, byPackage };
}

const ENTRY = `export { MerchantPaymentsClient } from ${JSON.stringify(DIST)};`;

/** The measured bundles: total (dependencies included) and own code (dependencies external). */
export async function measureBundle() {
  requireDist();
  const total = await bundle(ENTRY);
  const own = await bundle(ENTRY, DEPENDENCIES);
  return {
    total: { minBytes: total.minBytes, gzipBytes: total.gzipBytes, byPackage: total.byPackage },
    own: { minBytes: own.minBytes, gzipBytes: own.gzipBytes },
  };
}

/**
 * Own code by source file: bundles `src/` directly (esbuild strips the types), which approximates dist/index.js
 * closely enough to see where the own bytes are.
 */
export async function ownBySourceFile() {
  const entry = `export { MerchantPaymentsClient } from ${JSON.stringify(join(ROOT, "src", "index.ts"))};`;
  const { byPackage } = await bundle(entry, DEPENDENCIES, true);
  return byPackage;
}

/** Writes the total bundle to a temporary .mjs file (for the cold-import comparison) and returns its path. */
export async function bundleForImport() {
  const { code } = await bundle(ENTRY);
  const file = join(mkdtempSync(join(tmpdir(), "mp-bench-")), "merchant-payments.bundle.mjs");
  writeFileSync(file, code);
  return file;
}

/** Reference points bundled the same way (skipped when not installed). */
export async function measureReferences() {
  const refs = [
    ["ky", `export { default } from "ky";`],
    ["uuid (v4)", `export { v4 } from "uuid";`],
    [
      "ky + zod/mini (object, string, safeParse)",
      `export { default } from "ky"; export { object, string, safeParse } from "zod/mini";`,
    ],
    ["openai (OpenAI client)", `export { OpenAI } from "openai";`],
  ];
  const out = [];
  for (const [name, contents] of refs) {
    try {
      const { minBytes, gzipBytes } = await bundle(contents);
      out.push({ name, minBytes, gzipBytes });
    } catch {
      // not installed
    }
  }
  return out;
}

export function render({ bundle: b, references, ownFiles }) {
  const rows = [
    [
      "merchant-payments total (import { MerchantPaymentsClient })",
      fmt.kb(b.total.minBytes),
      fmt.kb(b.total.gzipBytes),
    ],
    [
      "merchant-payments own code (dist/ alone; ky, zod, uuid external)",
      fmt.kb(b.own.minBytes),
      fmt.kb(b.own.gzipBytes),
    ],
    ...references.map((r) => [r.name, fmt.kb(r.minBytes), fmt.kb(r.gzipBytes)]),
  ];
  const parts = Object.entries(b.total.byPackage)
    .sort((x, y) => y[1] - x[1])
    .map(([name, bytes]) => [name, fmt.kb(bytes)]);
  let text = `${table(["bundle", "minified", "min + gzip -9"], rows)}\n\n${table(["package in the total bundle", "minified"], parts)}`;
  if (ownFiles) {
    const files = Object.entries(ownFiles)
      .sort((x, y) => y[1] - x[1])
      .map(([name, bytes]) => [name, fmt.kb(bytes)]);
    text += `\n\n${table(["own source file (bundled from src/)", "minified"], files)}`;
  }
  return text;
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  const result = {
    bundle: await measureBundle(),
    references: await measureReferences(),
    ownFiles: await ownBySourceFile(),
  };
  process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : `${render(result)}\n`);
}
