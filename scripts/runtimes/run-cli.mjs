// Bun and Deno: `<runtime> run-cli.mjs '<config JSON>'`. Prints the lane's result as one JSON line, and which file
// the package resolved to (the fetch build is expected).
import { runLane } from "./lane.mjs";

const args = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2);
const result = await runLane(JSON.parse(args[0]));
result.resolved = import.meta.resolve("merchant-payments");
console.log(JSON.stringify(result));
