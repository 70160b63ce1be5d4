/**
 * The documentation's code is part of the product: every code block of README.md and of docs/*.md (by glob, so a new
 * page is covered the day it lands) either runs here or type-checks here.
 *
 * - `ts` blocks compile against the SDK as a merchant would write them, each as its own module. Blocks are fragments
 *   of a backend, so they may use the few names `readme-prelude.d.ts` declares (`client`, `paymentId`, `signal`,
 *   `log`), nothing else.
 * - A block that imports msw compiles against msw 3 (the project's) and msw 2 (CI's msw 2 lane,
 *   `scripts/test-msw-2.sh`, installs it into .tmp/msw-2); `<!-- docs: msw 2 -->` or `<!-- docs: msw 3 -->` before a
 *   block says it is written for that major only.
 * - `<!-- docs: run -->` blocks also run, against the bundled mock service on 127.0.0.1, configured by the three
 *   environment variables the README documents. `<!-- docs: shop -->` blocks are servers, run by `quickstart.test.ts`.
 * - `json` blocks parse; `sh`, `yaml` and `text` blocks are commands and files (the README's commands run in
 *   `scripts/check-fresh-clone.sh`); a fence without a language fails.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type MockServer, startMockServer } from "../../src/testing/index.js";
import { codeBlocks, type DocBlock, documentationFiles, OUT, ROOT } from "./doc-blocks.js";

const PRELUDE = fileURLToPath(new URL("./readme-prelude.d.ts", import.meta.url));
const LANGUAGES = new Set(["ts", "sh", "json", "yaml", "text"]);

/** msw 2, when installed apart (CI's msw 2 lane): `MSW_PACKAGE_DIR`, else .tmp/msw-2. */
const MSW_2 = resolve(ROOT, process.env.MSW_PACKAGE_DIR ?? ".tmp/msw-2/node_modules/msw");
const MSW_2_INSTALLED = existsSync(join(MSW_2, "package.json"));

const importsMsw = (block: DocBlock) => /from "msw(\/[\w/]+)?"|testing\/msw"/.test(block.code);
const forMsw = (block: DocBlock, major: 2 | 3) =>
  block.marker === `msw ${major}` || (importsMsw(block) && !/^msw \d$/.test(block.marker ?? ""));

function compilerOptions(): ts.CompilerOptions {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("tsconfig.json could not be read");
  return config.options;
}

/**
 * Type-checks blocks, each as its own module (`export {}` keeps a fragment's names out of the global scope). With
 * `mswDir`, every `msw` import (the blocks' and the mock's) resolves to that copy of msw.
 */
function diagnosticsByFile(files: readonly string[], mswDir?: string): Map<string, string[]> {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  if (mswDir) {
    // Resolved from inside the other copy's install, so that its own `exports` and dependencies apply.
    const from = join(mswDir, "..", "..", "index.ts");
    host.resolveModuleNames = (names, containingFile) =>
      names.map(
        (name) =>
          ts.resolveModuleName(name, /^msw(\/|$)/.test(name) ? from : containingFile, options, host)
            .resolvedModule,
      );
  }
  const program = ts.createProgram([PRELUDE, ...files], options, host);
  const found = new Map<string, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName ?? "(global)";
    const at = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const list = found.get(file) ?? [];
    list.push(`${at ? `block line ${at.line + 1}: ` : ""}TS${diagnostic.code} ${text}`);
    found.set(file, list);
  }
  return found;
}

const pages = documentationFiles();
const blocks = pages.flatMap(codeBlocks);
const typed = blocks.filter((block) => block.language === "ts");
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
for (const block of typed) {
  mkdirSync(dirname(block.file), { recursive: true });
  writeFileSync(block.file, `${block.code}\nexport {};\n`);
}
const normal = (file: string) => file.replaceAll("\\", "/");

describe("documentation code blocks", () => {
  it("finds the README's blocks and every page of docs/", () => {
    expect(pages).toContain("docs/configuration.md");
    expect(typed.filter((block) => block.where.startsWith("README.md")).length).toBeGreaterThan(4);
    expect(blocks.some((block) => block.marker === "run")).toBe(true);
  });

  it("every fence names a language this check knows", () => {
    const unknown = blocks.filter((block) => !LANGUAGES.has(block.language));
    expect(unknown.map((block) => `${block.where}: "${block.language}"`)).toEqual([]);
  });

  it("every json block parses", () => {
    for (const block of blocks.filter((candidate) => candidate.language === "json")) {
      expect(() => JSON.parse(block.code), block.where).not.toThrow();
    }
  });

  describe("every ts block type-checks (msw 3)", () => {
    const files = typed.filter((block) => block.marker !== "msw 2");
    let diagnostics: Map<string, string[]>;
    beforeAll(() => {
      diagnostics = diagnosticsByFile(files.map((block) => block.file));
    }, 120_000);

    it("the prelude itself", () => {
      expect(diagnostics.get(normal(PRELUDE)) ?? []).toEqual([]);
      expect(diagnostics.get("(global)") ?? []).toEqual([]);
    });
    for (const block of files) {
      it(block.where, () => {
        expect(diagnostics.get(normal(block.file)) ?? []).toEqual([]);
      });
    }
  });

  describe.skipIf(!MSW_2_INSTALLED)(
    "every block that uses msw type-checks on msw 2 (scripts/test-msw-2.sh)",
    () => {
      const files = typed.filter((block) => forMsw(block, 2));
      let diagnostics: Map<string, string[]>;
      beforeAll(() => {
        diagnostics = diagnosticsByFile(
          files.map((block) => block.file),
          MSW_2,
        );
      }, 120_000);

      it("msw 2 is the copy the blocks see", () => {
        const version = (JSON.parse(readFileSync(join(MSW_2, "package.json"), "utf8")) as { version: string })
          .version;
        expect(version).toMatch(/^2\./);
        expect(files.length).toBeGreaterThan(0);
      });
      for (const block of files) {
        it(block.where, () => {
          expect(diagnostics.get(normal(block.file)) ?? []).toEqual([]);
        });
      }
    },
  );

  describe("runnable blocks run against the mock service", () => {
    let mock: MockServer;
    beforeAll(async () => {
      mock = await startMockServer({ pollInMs: 10 });
    });
    afterAll(async () => {
      await mock?.close();
    });

    for (const block of typed.filter((candidate) => candidate.marker === "run")) {
      it(
        block.where,
        async () => {
          // The README's own configuration: the environment variables it documents.
          vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", mock.service.keys.test);
          vi.stubEnv("MERCHANT_PAYMENTS_BASE_URL", mock.url);
          vi.stubEnv("MERCHANT_PAYMENTS_MERCHANT_ID", mock.service.merchantId);
          await import(pathToFileURL(block.file).href);
        },
        30_000,
      );
    }
  });
});
