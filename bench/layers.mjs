// Where the client CPU of `payments.status()` goes, layer by layer, over loopback (the fixed server in its own
// process). Each row adds one layer to the one above it, so the differences are the layers' costs:
//
//   raw node:http (keep-alive agent, body read as text, JSON.parse)   the floor of any node:http client
//   + the SDK's wire adapter (a WHATWG Request in, a Response out)    what ky's documented `fetch` option needs
//   + ky (its Request, clone, AbortController, options merge)         ky's documented path, as core/http.ts calls it
//   = the SDK (headers, deadline, bounded JSON, redaction, zod)       `payments.status()`
//
// and global fetch + `res.json()` for reference. Variants are interleaved round-robin; medians of the rounds.
//
//   node bench/layers.mjs [--rounds=7] [--calls=2000] [--json]
import http from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ky from "ky";
import {
  DIST,
  fmt,
  isMain,
  loadAdapter,
  median,
  parseArgs,
  requireDist,
  ROOT,
  runCalls,
  startChild,
  table,
} from "./lib/common.mjs";
// The headers the SDK sends, so that every layer writes the same request.
import { CLIENT_OPTIONS, HEADERS, PAYMENT_ID } from "./lib/fixtures.mjs";

export async function measure({ rounds = 7, calls = 2000 } = {}) {
  requireDist();
  const { MerchantPaymentsClient } = await import(pathToFileURL(DIST).href);
  const { createNodeFetch, bodyTextOf } = await loadAdapter();
  // The adapter hands its answer's text over beside the Response (src/core/wire/response.ts), as the SDK reads it.
  const parsed = (response) => JSON.parse(bodyTextOf(response));
  const server = await startChild(join(ROOT, "bench", "lib", "fixed-server.mjs"));
  const url = `${server.url}/v1/payments/${PAYMENT_ID}/status`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const adapter = createNodeFetch({ maxSockets: 32, maxResponseBytes: 1_048_576 });
  // As core/http.ts calls ky: retry 0, the attempt's deadline as ky's timeout, no signal unless the caller gave one.
  const kyOverAdapter = ky.create({ retry: 0, throwHttpErrors: false, redirect: "manual", fetch: adapter });
  const client = new MerchantPaymentsClient({ ...CLIENT_OPTIONS, baseUrl: server.url });
  const variants = {
    "global fetch + res.json()": () => fetch(url, { headers: HEADERS }).then((response) => response.json()),
    "raw node:http": () =>
      new Promise((resolve, reject) => {
        http
          .get(url, { headers: HEADERS, agent }, (incoming) => {
            let text = "";
            incoming.setEncoding("utf8");
            incoming.on("data", (chunk) => {
              text += chunk;
            });
            incoming.on("end", () => resolve(JSON.parse(text)));
          })
          .on("error", reject);
      }),
    "+ the SDK's wire adapter": () => adapter(new Request(url, { headers: HEADERS })).then(parsed),
    "+ ky over the adapter": () => kyOverAdapter(url, { headers: HEADERS, timeout: 30_000 }).then(parsed),
    "= SDK payments.status()": () => client.payments.status(PAYMENT_ID),
  };
  const results = {};
  try {
    for (const concurrency of [1, 64]) {
      const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
      for (const run of Object.values(variants)) await runCalls(run, 500, concurrency); // warm-up
      for (let round = 0; round < rounds; round++) {
        for (const [name, run] of Object.entries(variants)) {
          const cpu = process.cpuUsage();
          await runCalls(run, calls, concurrency);
          const used = process.cpuUsage(cpu);
          samples[name].push((used.user + used.system) / calls);
        }
      }
      results[concurrency === 1 ? "sequential" : "concurrency 64"] = Object.fromEntries(
        Object.entries(samples).map(([name, values]) => [name, median(values)]),
      );
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
  return { node: process.version, rounds, calls, results };
}

export function render({ results }) {
  const modes = Object.keys(results);
  const names = Object.keys(results[modes[0]]);
  const rows = names.map((name) => [
    name,
    ...modes.flatMap((mode) => {
      const value = results[mode][name];
      const fetchValue = results[mode]["global fetch + res.json()"];
      return [fmt.us(value), fmt.ratio(value / fetchValue)];
    }),
  ]);
  return table(["client CPU per status call", ...modes.flatMap((mode) => [mode, "vs fetch"])], rows);
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  const result = await measure({ rounds: Number(args.rounds ?? 7), calls: Number(args.calls ?? 2000) });
  process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : `${render(result)}\n`);
  process.exit(0);
}
