/**
 * `merchant-payments-mock`: runs the mock service on loopback.
 *
 * ```
 * merchant-payments-mock [--port N] [--host 127.0.0.1|localhost] [--seed file.json] [--poll-ms N]
 * ```
 *
 * Prints the URL, the test and live keys, the merchant ids and the control prefix; stops on SIGINT/SIGTERM.
 * Never imports msw.
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { MockSeed } from "./model/seed.js";
import { startMockServer } from "./server.js";

const USAGE =
  "Usage: merchant-payments-mock [--port N] [--host 127.0.0.1|localhost] [--seed file.json] [--poll-ms N]";

/** Runs the CLI with the given arguments; resolves to a stop function. */
async function main(argv: string[]): Promise<() => Promise<void>> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", default: "4010" },
      host: { type: "string", default: "127.0.0.1" },
      seed: { type: "string" },
      "poll-ms": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port: ${values.port}`);
  if (values.host !== "127.0.0.1" && values.host !== "localhost") {
    throw new Error("--host must be 127.0.0.1 or localhost (the mock only listens on loopback)");
  }
  let pollInMs: number | undefined;
  if (values["poll-ms"] !== undefined) {
    pollInMs = Number(values["poll-ms"]);
    if (!Number.isInteger(pollInMs) || pollInMs < 0)
      throw new Error(`invalid --poll-ms: ${values["poll-ms"]}`);
  }
  let seed: MockSeed | undefined;
  if (values.seed !== undefined) {
    const parsed: unknown = JSON.parse(readFileSync(values.seed, "utf8"));
    if (typeof parsed !== "object" || parsed === null || !Array.isArray((parsed as MockSeed).accounts)) {
      throw new Error('--seed file must hold { "accounts": [...] }');
    }
    seed = parsed as MockSeed;
  }
  const server = await startMockServer({
    port,
    host: values.host,
    ...(seed ? { seed } : {}),
    ...(pollInMs !== undefined ? { pollInMs } : {}),
  });
  const s = server.service;
  const lines = [
    `merchant-payments mock listening on ${server.url}`,
    `  test key:        ${s.keys.test}`,
    `  live key:        ${s.keys.live}`,
    `  merchant id:     ${s.merchantId} (test)`,
    ...(s.liveMerchantId ? [`  live merchant:   ${s.liveMerchantId}`] : []),
    `  version header:  ${s.versionHeader}`,
    `  control prefix:  ${server.url}${s.controlPrefix}`,
    `  portal:          ${server.url}/portal/<paymentId>`,
    "Press Ctrl+C to stop.",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  return () => server.close();
}

main(process.argv.slice(2)).then(
  (stop) => {
    const shutdown = (): void => {
      stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once("SIGINT", shutdown);
    process.once("SIGTERM", shutdown);
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
    process.exit(2);
  },
);
