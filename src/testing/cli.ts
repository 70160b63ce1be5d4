/**
 * `merchant-payments-mock`: runs the mock service, on loopback unless told otherwise.
 *
 * ```
 * merchant-payments-mock [--port N] [--host H] [--allow-remote] [--allowed-host NAME]... [--seed file.json] [--poll-ms N]
 * ```
 *
 * `--host` other than loopback (e.g. `0.0.0.0` in a CI service container) needs `--allow-remote`, and prints a
 * warning: the mock has no authentication. `--allowed-host mock` lets requests name the server `mock` (the
 * Compose service name); any other `Host` is refused.
 *
 * Prints the URL, the test and live keys, the merchant ids and the control prefix; stops on SIGINT/SIGTERM.
 * Never imports msw.
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { isLoopback } from "../validate/rules.js";
import type { MockSeed } from "./model/seed.js";
import { type MockServer, startMockServer } from "./server.js";

const USAGE =
  "Usage: merchant-payments-mock [--port N] [--host H] [--allow-remote] [--allowed-host NAME]... [--seed file.json] [--poll-ms N]";

/** A mistake in the arguments: printed with the usage line. */
class UsageError extends Error {}

const REMOTE_WARNING =
  "WARNING: the mock listens beyond this machine and has no authentication: anyone who can reach it can read its keys and drive its payments. Use it only on a private CI or Compose network.";

interface CliOptions {
  port: number;
  host: string;
  allowRemote: boolean;
  allowedHosts: string[];
  seed?: MockSeed;
  pollInMs?: number;
}

function readSeed(file: string): MockSeed {
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (typeof parsed !== "object" || parsed === null || !Array.isArray((parsed as MockSeed).accounts)) {
    throw new UsageError('--seed file must hold { "accounts": [...] }');
  }
  return parsed as MockSeed;
}

/** Reads the arguments; exits after printing the usage for --help. */
function parseCli(argv: string[]): CliOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", default: "4010" },
      host: { type: "string", default: "127.0.0.1" },
      "allow-remote": { type: "boolean", default: false },
      "allowed-host": { type: "string", multiple: true, default: [] },
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
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`invalid --port: ${values.port}`);
  const options: CliOptions = {
    port,
    host: values.host,
    allowRemote: values["allow-remote"],
    allowedHosts: values["allowed-host"],
  };
  if (values["poll-ms"] !== undefined) {
    options.pollInMs = Number(values["poll-ms"]);
    if (!Number.isInteger(options.pollInMs) || options.pollInMs < 0) {
      throw new UsageError(`invalid --poll-ms: ${values["poll-ms"]}`);
    }
  }
  if (values.seed !== undefined) options.seed = readSeed(values.seed);
  return options;
}

function banner(server: MockServer): string {
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
  return `${lines.join("\n")}\n`;
}

/** Runs the CLI with the given arguments; resolves to a stop function. */
async function main(argv: string[]): Promise<() => Promise<void>> {
  let options: CliOptions;
  try {
    options = parseCli(argv);
  } catch (err) {
    throw err instanceof UsageError ? err : new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { seed, pollInMs, ...listen } = options;
  // Said before binding: whoever asked to listen beyond this machine hears it even if the bind fails.
  if (options.allowRemote && !isLoopback(options.host)) process.stderr.write(`${REMOTE_WARNING}\n`);
  let server: MockServer;
  try {
    server = await startMockServer({
      ...listen,
      ...(seed ? { seed } : {}),
      ...(pollInMs !== undefined ? { pollInMs } : {}),
    });
  } catch (err) {
    if (err instanceof TypeError) throw new UsageError(err.message);
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new Error(
        `port ${options.port} on ${options.host} is already in use: stop the process holding it, or pass --port N (--port 0 picks a free one)`,
      );
    }
    throw err;
  }
  process.stdout.write(banner(server));
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
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof UsageError) {
      process.stderr.write(`${message}\n${USAGE}\n`);
      process.exit(2);
    }
    process.stderr.write(`merchant-payments-mock: ${message}\n`);
    process.exit(1);
  },
);
