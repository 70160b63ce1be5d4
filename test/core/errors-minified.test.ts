/**
 * `instanceof` across two copies of the package when a bundler minified them (issue 25, item 4): class names are
 * renamed then, so an error is recognised by the registered symbol of its kind, never by `Function.name`. The ESM
 * and the CommonJS build are bundled here with esbuild `--minify` (esbuild spawns its own process: a `slow` test).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Copy = Record<string, unknown>;
type ErrorClass = abstract new (...args: never) => Error;

const ENTRY = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "mp-minified-"));
let esm: Copy;
let cjs: Copy;

beforeAll(async () => {
  for (const format of ["esm", "cjs"] as const) {
    await build({
      entryPoints: [ENTRY],
      outfile: join(dir, format === "esm" ? "index.mjs" : "index.cjs"),
      bundle: true,
      minify: true,
      format,
      platform: "node",
      target: "node22",
      logLevel: "silent",
    });
  }
  esm = (await import(pathToFileURL(join(dir, "index.mjs")).href)) as Copy;
  cjs = createRequire(import.meta.url)(join(dir, "index.cjs")) as Copy;
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error classes a copy exports, by export name (which minifying keeps). */
function errorClasses(copy: Copy): Map<string, ErrorClass> {
  const base = copy.MerchantPaymentsError as ErrorClass;
  const classes = new Map<string, ErrorClass>();
  for (const [name, value] of Object.entries(copy)) {
    if (typeof value !== "function") continue;
    if (value === base || Object.prototype.isPrototypeOf.call(base.prototype, value.prototype)) {
      classes.set(name, value as ErrorClass);
    }
  }
  return classes;
}

describe("instanceof between two minified copies (ESM and CommonJS)", () => {
  it("the bundles did rename the classes (else this test proves nothing)", () => {
    const renamed = [...errorClasses(esm)].filter(([name, value]) => value.name !== name);
    expect(renamed.length).toBeGreaterThan(10);
  });

  it("every pair of error class and copy answers as within one copy", () => {
    const classes = { esm: errorClasses(esm), cjs: errorClasses(cjs) };
    expect(classes.esm.size).toBeGreaterThanOrEqual(17);
    const wrong: string[] = [];
    let pairs = 0;
    for (const [from, to] of [
      ["esm", "cjs"],
      ["cjs", "esm"],
    ] as const) {
      for (const [made, Made] of classes[from]) {
        const error = Object.create(Made.prototype) as Error;
        for (const [asked, Asked] of classes[to]) {
          pairs++;
          const within = error instanceof (classes[from].get(asked) as ErrorClass);
          if (error instanceof Asked !== within) wrong.push(`${from} ${made} instanceof ${to} ${asked}`);
        }
      }
    }
    expect(pairs).toBeGreaterThan(80);
    expect(wrong).toEqual([]);
  });

  it("a forged object with the brand and a class of the right name is not taken for that class", () => {
    for (const copy of [esm, cjs]) {
      class ConnectionError extends Error {}
      Object.defineProperty(ConnectionError.prototype, Symbol.for("merchant-payments.error"), {
        value: true,
      });
      const forged = new ConnectionError("x");
      expect(forged instanceof (copy.ConnectionError as ErrorClass)).toBe(false);
      expect(forged instanceof (copy.TimeoutError as ErrorClass)).toBe(false);
    }
  });
});
