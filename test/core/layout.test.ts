/**
 * The SDK's core as the next engineer meets it: files under 400 lines, functions under 60, no import circle through
 * the client, the transport, the resources or the rules (type imports included), and one vocabulary.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const SRC = join(ROOT, "src");
/** The mock and the schemas have their own layout rules (and owners). */
const ELSEWHERE = [join(SRC, "testing"), join(SRC, "schemas")];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

const all = sources(SRC).filter((file) => !file.startsWith(join(SRC, "testing")));
const core = all.filter((file) => !ELSEWHERE.some((dir) => file.startsWith(dir)));
const rel = (file: string) => relative(ROOT, file);

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/\bfrom\s+"(\.[^"]+)"/g)]
    .map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, ".ts")))
    .filter((target) => all.includes(target));
}

/** The files that reach themselves through their imports: the members of every import circle. */
function inCircles(files: readonly string[]): Set<string> {
  const edges = new Map(files.map((file) => [file, importsOf(file)]));
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [...(edges.get(from) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === to) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(edges.get(next) ?? []));
    }
    return false;
  };
  return new Set(files.filter((file) => reaches(file, file)));
}

function longFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.end).line;
      if (end - start + 1 > 60) found.push(`${rel(file)}:${start + 1} (${end - start + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the SDK's layout", () => {
  it("has no file over 400 lines", () => {
    const long = core.filter((file) => readFileSync(file, "utf8").split("\n").length > 400).map(rel);
    expect(long).toEqual([]);
  });

  it("has no function over 60 lines", () => {
    expect(core.flatMap(longFunctions)).toEqual([]);
  });

  it("has no import circle anywhere in the SDK, type-only imports included (model/ and schemas/ too)", () => {
    expect([...inCircles(all)].map(rel)).toEqual([]);
  });

  it("names things after what they are: no private words for the transport's parts", () => {
    const words = /\b(policy|refusal|refusedByService|settledOptions|finishers|Answer<)/;
    const used = core.filter((file) =>
      words.test(readFileSync(file, "utf8").replace(/RetryPolicy|RETRY_POLICY/g, "")),
    );
    expect(used.map(rel)).toEqual([]);
  });
});
