/**
 * The mock's source as the next engineer meets it: no import of the SDK's transport (`src/core/`), no `x.ts` beside a
 * folder `x/`, files under 400 lines, and no import circle between its files (type imports included).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
const MOCK = join(ROOT, "src/testing");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith(".ts") ? [path] : [];
  });
}

/** The files a file imports (relative specifiers, `.js` written for `.ts`). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/\bfrom\s+"(\.[^"]+)"/g)].map((m) =>
    resolve(dirname(file), m[1]!.replace(/\.js$/, ".ts")),
  );
}

const files = sources(MOCK);
const rel = (file: string): string => relative(ROOT, file);

describe("src/testing: the mock's layout", () => {
  it("imports nothing from the SDK's src/core/", () => {
    const core = join(ROOT, "src/core");
    const offenders = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(`${core}/`))
        .map((target) => `${rel(file)} -> ${rel(target)}`),
    );
    expect(offenders).toEqual([]);
  });

  it("has no x.ts beside a folder x/", () => {
    const clashes = files.filter((file) => existsSync(file.replace(/\.ts$/, ""))).map(rel);
    expect(clashes).toEqual([]);
  });

  it("keeps every file under 400 lines", () => {
    const long = files
      .map((file) => [rel(file), readFileSync(file, "utf8").split("\n").length] as const)
      .filter(([, lines]) => lines > 400);
    expect(long).toEqual([]);
  });

  it("has no import circle between its files, type imports included", () => {
    const graph = new Map(files.map((file) => [file, importsOf(file).filter((t) => t.startsWith(MOCK))]));
    const circles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const walk = (file: string, path: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        circles.push([...path.slice(path.indexOf(file)), file].map(rel).join(" -> "));
        return;
      }
      state.set(file, "open");
      for (const next of graph.get(file) ?? []) walk(next, [...path, file]);
      state.set(file, "done");
    };
    for (const file of files) walk(file, []);
    expect(circles).toEqual([]);
  });
});
