// Cold import() time: a fresh `node` process per sample, which imports one module graph and exits. The wall
// time of the process is what a CLI, a serverless cold start or a test worker pays; "node alone" (an empty
// script) is the floor. Variants are interleaved (one of each per round) and the median is reported.
//
//   node bench/cold-import.mjs [--rounds=15] [--json]
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundleForImport } from "./bundle.mjs";
import { DIST, fmt, isMain, median, parseArgs, ROOT, requireDist, table } from "./lib/common.mjs";

const require = createRequire(join(ROOT, "package.json"));

function resolvable(specifier) {
  try {
    require.resolve(specifier);
    return true;
  } catch {
    // openai's package.json has an `import`-only export in some versions; fall back to the folder.
    return existsSync(join(ROOT, "node_modules", specifier, "package.json"));
  }
}

async function importVariants() {
  const variants = [
    { name: "node alone", specifiers: [] },
    { name: "merchant-payments (dist/index.js)", specifiers: [pathToFileURL(DIST).href] },
    { name: "ky + zod/mini", specifiers: ["ky", "zod/mini"] },
    { name: "ky", specifiers: ["ky"] },
  ];
  // What a single-file ESM build (dependencies bundled and tree-shaken) would cost: a hint for the build setup.
  const bundled = await bundleForImport();
  variants.push({
    name: "merchant-payments, one-file bundle (hint)",
    specifiers: [pathToFileURL(bundled).href],
  });
  if (resolvable("openai")) variants.push({ name: "openai", specifiers: ["openai"] });
  if (resolvable("stripe")) variants.push({ name: "stripe", specifiers: ["stripe"] });
  return variants;
}

function sample(specifiers) {
  const code = [
    "const t = performance.now();",
    ...specifiers.map((s) => `await import(${JSON.stringify(s)});`),
    "process.stdout.write(String(performance.now() - t));",
  ].join("\n");
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`import of ${specifiers.join(", ")} failed: ${result.stderr}`);
  return { wallMs, importMs: Number(result.stdout) };
}

export async function measure({ rounds = 15, log = () => {} } = {}) {
  requireDist();
  const variants = await importVariants();
  for (const variant of variants) sample(variant.specifiers); // warm the file-system cache
  const wall = variants.map(() => []);
  const inside = variants.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < variants.length; k++) {
      const i = (k + round) % variants.length;
      const { wallMs, importMs } = sample(variants[i].specifiers);
      wall[i].push(wallMs);
      inside[i].push(importMs);
    }
    if ((round + 1) % 5 === 0) log(`cold import round ${round + 1}/${rounds}`);
  }
  const openai = variants.findIndex((v) => v.name === "openai");
  return variants.map((variant, i) => ({
    name: variant.name,
    wallMs: median(wall[i]),
    importMs: median(inside[i]),
    ratioToOpenai: openai === -1 ? undefined : median(wall[i].map((w, r) => w / wall[openai][r])),
  }));
}

export function render(results) {
  return table(
    ["module graph", "process wall (median)", "import() alone", "vs openai (wall)"],
    results.map((r) => [
      r.name,
      fmt.ms(r.wallMs),
      fmt.ms(r.importMs),
      r.ratioToOpenai === undefined ? "n/a" : fmt.ratio(r.ratioToOpenai),
    ]),
  );
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  const results = await measure({
    rounds: Number(args.rounds ?? 15),
    log: (l) => process.stderr.write(`${l}\n`),
  });
  process.stdout.write(args.json ? `${JSON.stringify(results)}\n` : `${render(results)}\n`);
}
