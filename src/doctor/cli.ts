/**
 * `merchant-payments-doctor`: checks a Merchant Payments service against what the SDK reads (docs/doctor.md).
 * A bin of its own beside `merchant-payments-mock`, so `npx merchant-payments-doctor` finds it by name.
 *
 * @module
 */
import { doctorMain } from "./main.js";
import { colourWanted } from "./report.js";

process.exitCode = await doctorMain(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  colour: colourWanted(process.stdout.isTTY, process.env),
});
