#!/usr/bin/env node
// The API reference check for CI: runs TypeDoc with typedoc.json (entry points `merchant-payments` and
// `merchant-payments/testing`), and fails when a public symbol has no doc comment, a link is broken, or a public type
// refers to something not exported. It then renders the reference and checks the README's and docs/*.md's links into
// it (`docs/api/…html#anchor`: the page and the anchor exist), and that each method they name in prose is such a link
// (`reference-links.mjs`).
//
// TypeDoc reports a missing comment once per place the symbol shows up (an undocumented `APIError.status` is also
// `AuthenticationError.status`, `NotFoundError.status`, …). This script lists each undocumented declaration once,
// by file and line, so the list reads as a to-do list.
//
//   node scripts/check-docs.mjs          # check only (no output written)
//   node scripts/check-docs.mjs --emit   # check, then write docs/api when clean (same as `npm run docs`)
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Application, Logger, LogLevel, TSConfigReader, TypeDocReader } from "typedoc";
import { referenceLinkProblems } from "./reference-links.mjs";

/** Keeps TypeDoc's warnings and errors instead of printing them. */
class CollectingLogger extends Logger {
  /** @type {{ message: string, level: LogLevel }[]} */
  messages = [];
  log(message, level) {
    if (level >= LogLevel.Warn) this.messages.push({ message, level });
  }
}

const emit = process.argv.includes("--emit");
const app = await Application.bootstrapWithPlugins({ logLevel: "Warn" }, [
  new TypeDocReader(),
  new TSConfigReader(),
]);
const logger = new CollectingLogger();
app.logger = logger;

const project = await app.convert();
if (!project) {
  for (const { message } of logger.messages) console.error(message);
  console.error("check-docs: TypeDoc could not convert the project");
  process.exit(1);
}
app.validate(project);

// Where each reflection is declared, by its full name as TypeDoc prints it.
/** @type {Map<string, Set<string>>} */
const locations = new Map();
const lineStarts = new Map();
const lineOf = (fileName, pos) => {
  let starts = lineStarts.get(fileName);
  if (!starts) {
    starts = [0];
    const text = readFileSync(fileName, "utf8");
    for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
    lineStarts.set(fileName, starts);
  }
  let line = 0;
  while (line + 1 < starts.length && starts[line + 1] <= pos) line++;
  return line + 1;
};
for (const reflection of Object.values(project.reflections)) {
  const id = project.getSymbolIdFromReflection(reflection);
  if (!id?.fileName) continue;
  const where = `${relative(process.cwd(), id.fileName)}:${lineOf(id.fileName, id.pos)}`;
  const name = reflection.getFriendlyFullName();
  if (!locations.has(name)) locations.set(name, new Set());
  locations.get(name).add(where);
}

const UNDOCUMENTED = /^(.+) \((\w+)\), defined in .+, does not have any documentation$/;
/** @type {Map<string, { kind: string, names: string[] }>} */
const undocumented = new Map();
const others = [];
for (const { message } of logger.messages) {
  const match = UNDOCUMENTED.exec(message);
  if (!match) {
    // Not a validation problem of ours: there is no git remote in a fresh checkout.
    if (!/git remote .* was not valid|^Found \d+ errors? and \d+ warnings?$/.test(message))
      others.push(message);
    continue;
  }
  const [, name, kind] = match;
  const member = name.slice(name.lastIndexOf(".") + 1);
  for (const where of locations.get(name) ?? ["(unknown location)"]) {
    const key = `${where}  ${member}`;
    const entry = undocumented.get(key) ?? { kind, names: [] };
    if (!entry.names.includes(name)) entry.names.push(name);
    undocumented.set(key, entry);
  }
}

const sorted = [...undocumented].sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }));
if (sorted.length > 0) {
  console.error(`Public declarations without a doc comment (${sorted.length}):`);
  for (const [key, { kind, names }] of sorted) {
    const more = names.length > 1 ? `, and ${names.length - 1} more place${names.length > 2 ? "s" : ""}` : "";
    console.error(`  ${key} (${kind}): ${names[0]}${more}`);
  }
}
if (others.length > 0) {
  console.error(`${sorted.length > 0 ? "\n" : ""}Other TypeDoc problems (${others.length}):`);
  for (const message of others) console.error(`  ${message}`);
}
if (sorted.length > 0 || others.length > 0 || logger.errorCount > 0) {
  console.error(
    "\ncheck-docs: failed (add the doc comments, or mark the symbol @internal if it is not public API)",
  );
  process.exit(1);
}
// The reference's pages and anchors, as the README and docs/ link to them.
const rendered = emit ? app.options.getValue("out") : await mkdtemp(join(tmpdir(), "merchant-payments-api-"));
await app.generateDocs(project, rendered);
const linkProblems = referenceLinkProblems(rendered);
if (!emit) await rm(rendered, { recursive: true, force: true });
if (linkProblems.length > 0) {
  console.error(`Links into the API reference (docs/api/) (${linkProblems.length}):`);
  for (const problem of linkProblems) console.error(`  ${problem}`);
  console.error("\ncheck-docs: failed (link each method a page names to its anchor in docs/api/)");
  process.exit(1);
}
console.log(
  `check-docs: every public symbol is documented${emit ? `; written to ${app.options.getValue("out")}` : ""}`,
);
