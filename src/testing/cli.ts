/**
 * `merchant-payments-mock`: runs the mock service, on loopback unless told otherwise. `--help` prints every option
 * with an example and the seed file format; docs/mock.md says the same with a Docker Compose recipe.
 *
 * Prints the URL, the test and live keys, the merchant ids and the control prefix; stops on SIGINT/SIGTERM.
 * Never imports msw.
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { isLoopback } from "../validate/rules.js";
import { type MockServer, startMockServer } from "./server.js";
import type { MockSeed } from "./store/seed.js";

const USAGE = "Usage: merchant-payments-mock [options]   (--help lists them)";

/** What `--help` prints: every option with an example, and the seed file format. */
const HELP = `Usage: merchant-payments-mock [options]

Runs the merchant-payments mock service over HTTP. Prints its URL, keys and merchant ids.

Options:
  --port N               Port to listen on; 0 picks a free one. Default 4010.
                         e.g. --port 4011
  --host H               Interface to listen on. Default 127.0.0.1. Anything but loopback needs --allow-remote.
                         e.g. --host 0.0.0.0 --allow-remote
  --allow-remote         Allow a non-loopback --host (a CI service container, Docker Compose). The mock has no
                         authentication: use it on a private network only.
  --allowed-host NAME    A name requests may give in their Host header besides localhost, 127.0.0.1 and [::1];
                         repeat for more. Any other Host is refused (421).
                         e.g. --allowed-host mock   (the Compose service name)
  --public-url URL       Where links in answers (paymentLink, gatewayUrl) point. Default: the origin of each
                         request's Host, so a container calling http://mock:4010 gets http://mock:4010/portal/...
                         and a browser on the host calling http://localhost:4010 gets http://localhost:4010/portal/...
                         e.g. --public-url http://localhost:4010
  --allow-insecure-http  Test-mode payments also accept plain http:// return URLs to any host (the SDK sends them
                         under allowInsecureHttp with a test key). Live mode never.
                         e.g. --allow-insecure-http   (successUrl http://app:3000/done in Compose)
  --seed FILE            Accounts, fixed keys, merchants and settlements to start with (JSON, format below).
                         e.g. --seed ./mock-seed.json
  --poll-ms N            pollInMs of status answers that are not final. Default 1000.
                         e.g. --poll-ms 200
  -h, --help             Print this help.

Seed file (every field but accounts[].merchants[].name is optional; omitted ids and keys are generated):
  {
    "accounts": [{
      "id": "acct_ci",
      "keys": {
        "test": "mock_test_ci_key",
        "live": "mock_live_ci_key",
        "app": { "test": { "appId": "app_test_ci", "clientId": "client_ci" } }
      },
      "merchants": [{
        "id": "mrch_ci", "mode": "test", "name": "CI Shop", "email": "shop@example.com",
        "crypto": [{ "asset": "eip155:84532/erc20:0x036CbD53842c5426634e7929541eC2318f3dCF7e",
                     "destination": "eip155:84532:0x000000000000000000000000000000000000bEEF" }]
      }]
    }]
  }
  Test keys start with mock_test_, live keys with mock_ (not mock_test_). The first account is the default one.

Example (Docker Compose service "mock", a browser on the host opening the checkout pages):
  merchant-payments-mock --host 0.0.0.0 --allow-remote --allowed-host mock --seed /seed.json --allow-insecure-http
`;

/** A mistake in the arguments: printed with the usage line. */
class UsageError extends Error {}

const REMOTE_WARNING =
  "WARNING: the mock listens beyond this machine and has no authentication: anyone who can reach it can read its keys and drive its payments. Use it only on a private CI or Compose network.";

interface CliOptions {
  port: number;
  host: string;
  allowRemote: boolean;
  allowedHosts: string[];
  allowInsecureHttp: boolean;
  publicUrl?: string;
  seed?: MockSeed;
  seedFile?: string;
  pollInMs?: number;
}

/** Reads the seed file; every failure names the file (the service names the field when it applies the seed). */
function readSeed(file: string): MockSeed {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(
      `--seed ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `--seed ${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || !Array.isArray((parsed as MockSeed).accounts)) {
    throw new UsageError(`--seed ${file}: must hold { "accounts": [...] } (see --help for the format)`);
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
      "public-url": { type: "string" },
      "allow-insecure-http": { type: "boolean", default: false },
      seed: { type: "string" },
      "poll-ms": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
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
    allowInsecureHttp: values["allow-insecure-http"],
  };
  if (values["public-url"] !== undefined) options.publicUrl = values["public-url"];
  if (values["poll-ms"] !== undefined) {
    options.pollInMs = Number(values["poll-ms"]);
    if (!Number.isInteger(options.pollInMs) || options.pollInMs < 0) {
      throw new UsageError(`invalid --poll-ms: ${values["poll-ms"]}`);
    }
  }
  if (values.seed !== undefined) {
    options.seed = readSeed(values.seed);
    options.seedFile = values.seed;
  }
  return options;
}

function banner(server: MockServer, publicUrl: string | undefined): string {
  const s = server.service;
  const lines = [
    publicUrl === undefined
      ? `merchant-payments mock listening on ${server.url}`
      : `merchant-payments mock listening on port ${server.port}; links point to ${server.url}`,
    `  test key:        ${s.keys.test}`,
    `  live key:        ${s.keys.live}`,
    `  merchant id:     ${s.merchantId} (test)`,
    ...(s.liveMerchantId ? [`  live merchant:   ${s.liveMerchantId}`] : []),
    `  version header:  ${s.versionHeader}`,
    `  control prefix:  ${server.url}${s.controlPrefix}`,
    `  portal:          ${server.url}/portal/<paymentId>`,
    // The three variables the SDK reads, ready to paste: the README's hello world needs nothing else.
    "For your app's shell (test mode):",
    `  export MERCHANT_PAYMENTS_BASE_URL=${server.url} MERCHANT_PAYMENTS_API_KEY=${s.keys.test} MERCHANT_PAYMENTS_MERCHANT_ID=${s.merchantId}`,
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
  const { seed, seedFile, pollInMs, ...listen } = options;
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
    if (err instanceof TypeError && seedFile !== undefined && err.message.startsWith("seed")) {
      throw new UsageError(`--seed ${seedFile}: ${err.message}`);
    }
    if (err instanceof TypeError) throw new UsageError(err.message);
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new Error(
        `port ${options.port} on ${options.host} is already in use: stop the process holding it, or pass --port N (--port 0 picks a free one)`,
      );
    }
    throw err;
  }
  process.stdout.write(banner(server, options.publicUrl));
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
