/**
 * examples/README.md's copy recipes name every package the copied files import (issue #28: the Next.js recipe left
 * out `@electric-sql/pglite` and `pg`, and the app answered 500). For each recipe row: the files it lists, and the
 * `examples/shared/` files they import, are read for their bare imports; each package must be in the row's install.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { builtinModules } from "node:module";
import { describe, expect, it } from "vitest";
import { ROOT } from "./doc-blocks.js";

const EXAMPLES = join(ROOT, "examples");
const README = readFileSync(join(EXAMPLES, "README.md"), "utf8");

/** The rows of the "Copying an example into your app" table: name, install cell, files cell. */
function recipes(): { name: string; install: string; files: string }[] {
  const section = README.slice(README.indexOf("## Copying an example into your app"));
  const table = section.slice(section.indexOf("| Example | Install | Files |"));
  const rows = table.slice(0, table.indexOf("\n\n")).split("\n").slice(2);
  return rows.map((row) => {
    const [, name = "", install = "", files = ""] = row.split("|").map((cell) => cell.trim());
    return { name, install, files };
  });
}

/** The `.ts` files a files cell names (`nextjs/app/api/checkout/**` is every file under that folder). */
function listedFiles(cell: string): string[] {
  const named = [...cell.matchAll(/`([\w./*-]+\.ts|[\w./-]+\/\*\*)`/g)].map((m) => m[1] ?? "");
  return named.flatMap((name) =>
    name.endsWith("/**") ? filesUnder(join(EXAMPLES, name.slice(0, -3))) : [join(EXAMPLES, name)],
  );
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** The packages a file needs, following its relative imports (the shared flow and orders). */
function packagesOf(file: string, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  const source = readFileSync(file, "utf8").replace(/^\s*(\/\/.*|\/?\*.*)$/gm, "");
  for (const [, specifier = ""] of source.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
    if (specifier.startsWith(".")) {
      const base = resolve(dirname(file), specifier.replace(/\.js$/, ""));
      const target = [`${base}.ts`, join(base, "index.ts")].find(existsSync);
      if (target) for (const name of packagesOf(target, seen)) packages.add(name);
      continue;
    }
    if (specifier.startsWith("node:") || builtinModules.includes(specifier)) continue;
    const parts = specifier.split("/");
    packages.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier));
  }
  return packages;
}

describe("examples/README.md copy recipes", () => {
  const rows = recipes();

  it("has a recipe for Express, Hono, Next.js, the worker and the merchant setup", () => {
    expect(rows.map((row) => row.name)).toEqual(
      expect.arrayContaining(["Express", "Hono on Node", "Next.js", "Worker", "Merchant setup"]),
    );
  });

  for (const row of rows) {
    it(`${row.name}: the install names every package its files import`, () => {
      const files = listedFiles(row.files);
      expect(files.length).toBeGreaterThan(0);
      const needed = new Set(files.flatMap((file) => [...packagesOf(file)]));
      const missing = [...needed].filter(
        (name) => !row.install.includes(` ${name}`) && !row.install.includes(`\`${name}`),
      );
      expect(missing).toEqual([]);
    });
  }
});
