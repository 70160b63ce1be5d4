/**
 * The doctor's command line: flags for what the client's environment variables say (the flag wins), and the
 * doctor's own. The API key is read from `MERCHANT_PAYMENTS_API_KEY` only: a key given as a flag would land in the
 * shell's history and in every process listing.
 *
 * @module
 */
import { parseArgs } from "node:util";

/** A mistake in the arguments: printed with the usage line, exit status 2. */
export class UsageError extends Error {}

export const USAGE = "Usage: merchant-payments-doctor [options]   (--help lists them)";

export const HELP = `Usage: merchant-payments-doctor [options]

Checks a Merchant Payments service against what the SDK reads: runs every read-only operation and, with a test
key, creates, reads and cancels a payment and a checkout. Reports each operation as ok, drift or error.

Environment (as the client reads it):
  MERCHANT_PAYMENTS_API_KEY       The API key (required; never printed).
  MERCHANT_PAYMENTS_BASE_URL      The service's address (or --base-url).
  MERCHANT_PAYMENTS_MERCHANT_ID   The merchant to act for (or --merchant-id; default: the first one listed).

Options:
  --base-url URL           The service's address.
  --merchant-id ID         The merchant to act for.
  --payment-id ID          A payment whose status to read (a read-only run has no other).
  --version-header NAME    The service's version header (<Prefix>-Version): its echo is then required.
  --allow-live-writes      With a live key, also create and cancel a payment and a checkout (0.01 USD each).
  --timeout SECONDS        The deadline of the whole run. Default 60.
  --json                   Print the report as one JSON object.
  -h, --help               Print this help.

Exit status: 0 when no operation has missing or mistyped fields or an error, 1 otherwise, 2 for bad usage.
`;

/** What the command line asks for. */
export interface DoctorArgs {
  help: boolean;
  json: boolean;
  baseUrl: string | undefined;
  merchantId: string | undefined;
  paymentId: string | undefined;
  versionHeader: string | undefined;
  allowLiveWrites: boolean;
  timeoutMs: number;
}

/** The longest deadline: ten minutes. */
const MAX_TIMEOUT_SECONDS = 600;

/** Reads the arguments. @throws {UsageError} for an unknown flag, a stray argument or a bad value. */
export function parseDoctorArgs(argv: readonly string[]): DoctorArgs {
  let values: ReturnType<typeof parse>["values"];
  try {
    ({ values } = parse(argv));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const seconds = values.timeout === undefined ? 60 : Number(values.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS) {
    throw new UsageError(`--timeout must be a number of seconds above 0, at most ${MAX_TIMEOUT_SECONDS}`);
  }
  return {
    help: values.help === true,
    json: values.json === true,
    baseUrl: values["base-url"],
    merchantId: values["merchant-id"],
    paymentId: values["payment-id"],
    versionHeader: values["version-header"],
    allowLiveWrites: values["allow-live-writes"] === true,
    timeoutMs: Math.round(seconds * 1000),
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      "base-url": { type: "string" },
      "merchant-id": { type: "string" },
      "payment-id": { type: "string" },
      "version-header": { type: "string" },
      "allow-live-writes": { type: "boolean" },
      timeout: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
