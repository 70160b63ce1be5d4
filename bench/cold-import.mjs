// Cold start: a fresh `node` process per sample. "import" rows import one module graph and exit; "first call" rows
// import a client, make it and send its first request (a status GET) to the fixed server on 127.0.0.1 (its own
// process, started once), as a serverless function's cold start does. The wall time of the process is what a CLI, a
// serverless cold start or a test worker pays; "in process" is measured inside the child from before the first
// `import()` to the end of the first call. "node alone" (an empty script) is the floor of an import; the design's
// floor of a first call is ky and zod/mini loaded, one small schema, one GET through ky (nothing of the SDK).
// Variants are interleaved (one of each per round) and medians are reported; ratios to openai-node and to that
// floor are the median of per-round ratios.
//
//   node bench/cold-import.mjs [--rounds=15] [--json]
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { bundleForImport } from "./bundle.mjs";
import { DIST, fmt, isMain, median, parseArgs, ROOT, requireDist, startChild, table } from "./lib/common.mjs";
import { API_KEY, API_VERSION, HEADERS, MERCHANT_ID, PAYMENT_ID } from "./lib/fixtures.mjs";

/** A peer SDK's ES module entry, resolved from bench/node_modules (`npm install --prefix bench`); none if absent. */
function resolved(specifier) {
  try {
    return import.meta.resolve(specifier);
  } catch {
    return undefined;
  }
}

const STATUS_PATH = `/v1/payments/${PAYMENT_ID}/status`;

/** Each variant: the module graph it imports, and (first-call rows) the code that makes the client and calls. */
async function importVariants() {
  const sdk = pathToFileURL(DIST).href;
  const openai = resolved("openai");
  const stripe = resolved("stripe");
  const variants = [
    { name: "node alone", imports: [] },
    { name: "merchant-payments (dist/index.js)", imports: [sdk] },
    { name: "ky + zod/mini", imports: ["ky", "zod/mini"] },
    { name: "ky", imports: ["ky"] },
  ];
  // What a single-file ESM build (dependencies bundled and tree-shaken) would cost: a hint for the build setup.
  const bundled = pathToFileURL(await bundleForImport()).href;
  variants.push({ name: "merchant-payments, one-file bundle (hint)", imports: [bundled] });
  if (openai) variants.push({ name: "openai", imports: [openai] });
  if (stripe) variants.push({ name: "stripe", imports: [stripe] });
  const options = JSON.stringify({
    apiKey: API_KEY,
    merchantId: MERCHANT_ID,
    versionHeader: "Mock-Version",
    apiVersion: API_VERSION,
  });
  const headers = JSON.stringify(HEADERS);
  variants.push(
    {
      name: "first call: raw fetch GET + res.json()",
      imports: [],
      call: `await (await fetch(BASE + ${JSON.stringify(STATUS_PATH)}, { headers: ${headers} })).json();`,
    },
    {
      // The design's floor for a first call (ky and zod/mini resolved from node_modules, nothing of the SDK): both
      // loaded at once, one small zod/mini object schema, one GET through ky, the JSON read with the schema.
      name: "first call: ky + zod/mini floor (GET, small schema)",
      imports: [],
      call: [
        'const [{ default: ky }, z] = await Promise.all([import("ky"), import("zod/mini")]);',
        "const schema = z.looseObject({ status: z.string(), isFinal: z.boolean(), pollInMs: z.optional(z.nullable(z.number())) });",
        `z.parse(schema, await ky.get(BASE + ${JSON.stringify(STATUS_PATH)}, { headers: ${headers}, retry: 0 }).json());`,
      ].join("\n"),
    },
    {
      name: "first call: merchant-payments payments.status()",
      imports: [sdk],
      call: `const client = new m0.MerchantPaymentsClient({ ...${options}, baseUrl: BASE });\nawait client.payments.status(${JSON.stringify(PAYMENT_ID)});`,
    },
  );
  variants.push({
    name: "first call: merchant-payments, one-file bundle (hint)",
    imports: [bundled],
    call: variants.at(-1).call,
  });
  if (openai) {
    variants.push({
      name: "first call: openai-node .get()",
      imports: [openai],
      call: `const client = new m0.default({ apiKey: ${JSON.stringify(API_KEY)}, baseURL: BASE, maxRetries: 2 });\nawait client.get(${JSON.stringify(STATUS_PATH)}, { headers: ${headers} });`,
    });
  }
  if (stripe) {
    variants.push({
      name: "first call: stripe-node rawRequest",
      imports: [stripe],
      call: `const { hostname, port } = new URL(BASE);\nconst client = new m0.default(${JSON.stringify(API_KEY)}, { host: hostname, port, protocol: "http" });\nawait client.rawRequest("GET", ${JSON.stringify(STATUS_PATH)}, null, { additionalHeaders: ${headers} });`,
    });
  }
  return variants;
}

function sample({ imports, call }, url) {
  const code = [
    "const t = performance.now();",
    "const BASE = process.env.BENCH_URL;",
    ...imports.map((s, i) => `const m${i} = await import(${JSON.stringify(s)});`),
    call ?? "",
    "process.stdout.write(String(performance.now() - t));",
  ].join("\n");
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, BENCH_URL: url },
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`cold sample of ${imports.join(", ")} failed: ${result.stderr}`);
  return { wallMs, importMs: Number(result.stdout) };
}

/** The median over rounds of a variant's per-round ratio to another's. */
const ratioTo = (mine, theirs) => median(mine.map((value, round) => value / theirs[round]));

export async function measure({ rounds = 15, log = () => {} } = {}) {
  requireDist();
  const variants = await importVariants();
  const server = await startChild(new URL("./lib/fixed-server.mjs", import.meta.url).pathname);
  try {
    for (const variant of variants) sample(variant, server.url); // warm the file-system cache
    const wall = variants.map(() => []);
    const inside = variants.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < variants.length; k++) {
        const i = (k + round) % variants.length;
        const { wallMs, importMs } = sample(variants[i], server.url);
        wall[i].push(wallMs);
        inside[i].push(importMs);
      }
      if ((round + 1) % 5 === 0) log(`cold start round ${round + 1}/${rounds}`);
    }
    const openai = variants.findIndex((v) => v.name === "openai");
    const openaiCall = variants.findIndex((v) => v.name.startsWith("first call: openai"));
    const floorCall = variants.findIndex((v) => v.name.startsWith("first call: ky + zod/mini floor"));
    return variants.map((variant, i) => {
      const peer = variant.call === undefined ? openai : openaiCall;
      return {
        name: variant.name,
        firstCall: variant.call !== undefined,
        wallMs: median(wall[i]),
        importMs: median(inside[i]),
        ratioToOpenai: peer === -1 ? undefined : ratioTo(wall[i], wall[peer]),
        insideRatioToOpenai: peer === -1 ? undefined : ratioTo(inside[i], inside[peer]),
        insideRatioToFloor: variant.call === undefined ? undefined : ratioTo(inside[i], inside[floorCall]),
      };
    });
  } finally {
    await server.stop();
  }
}

export function render(results) {
  const ratio = (value) => (value === undefined ? "n/a" : fmt.ratio(value));
  return table(
    [
      "module graph (first call: import + new client + one status GET)",
      "process wall (median)",
      "in process",
      "vs openai (wall)",
      "vs openai (in process)",
      "first call vs the ky + zod/mini floor (in process)",
    ],
    results.map((r) => [
      r.name,
      fmt.ms(r.wallMs),
      fmt.ms(r.importMs),
      ratio(r.ratioToOpenai),
      ratio(r.insideRatioToOpenai),
      r.firstCall ? ratio(r.insideRatioToFloor) : "",
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
