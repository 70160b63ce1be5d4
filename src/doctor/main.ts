/**
 * `merchant-payments-doctor` as a function: the arguments in, the report out, the exit status back. The bin
 * (`cli.ts`) runs it on the process; tests run it in process.
 *
 * @module
 */
import { ConfigurationError } from "../errors.js";
import { HELP, parseDoctorArgs, USAGE, UsageError } from "./args.js";
import { exitStatusOf, humanReport } from "./report.js";
import { runDoctor } from "./run.js";

/** Where the doctor writes, and what it knows of its terminal. */
export interface DoctorIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Colour is used only on a terminal, and never when `NO_COLOR` is set. */
  colour: boolean;
  /** The fetch to send with (tests); the global one otherwise. */
  fetch?: typeof fetch;
}

/** Runs the doctor: 0 when nothing is missing, mistyped or failing, 1 otherwise, 2 for bad usage. */
export async function doctorMain(argv: readonly string[], io: DoctorIO): Promise<0 | 1 | 2> {
  let args: ReturnType<typeof parseDoctorArgs>;
  try {
    args = parseDoctorArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`merchant-payments-doctor: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    io.stdout(HELP);
    return 0;
  }
  let run: Awaited<ReturnType<typeof runDoctor>>;
  try {
    run = await runDoctor({ ...args, ...(io.fetch && { fetch: io.fetch }) });
  } catch (error) {
    // The client's configuration errors never hold the key: they describe a wrong value by its type.
    if (!(error instanceof ConfigurationError)) throw error;
    io.stderr(`merchant-payments-doctor: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  const { report, notes, secret } = run;
  // Belt and braces: no output holds the key, whatever a service echoed into a field name or a code.
  const safe = (text: string) => (secret === undefined ? text : text.replaceAll(secret, "[redacted]"));
  if (args.json) {
    io.stdout(safe(`${JSON.stringify(report, null, 2)}\n`));
    for (const note of notes) io.stderr(safe(`merchant-payments-doctor: ${note}\n`));
  } else {
    io.stdout(safe(humanReport(report, notes, io.colour)));
  }
  return exitStatusOf(report);
}
