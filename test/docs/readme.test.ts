/**
 * The README's code is part of the product: every `ts` block must compile against the SDK as a merchant would write
 * it, and the blocks marked `<!-- readme: run -->` must also run, against the bundled mock service on 127.0.0.1.
 *
 * Blocks are fragments of a merchant's backend, so they may use the names a backend has around them (`client`,
 * `order`, `db`, `req`, …): `readme-prelude.d.ts` declares those, and nothing else is assumed.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type MockServer, startMockServer } from "../../src/testing/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const README = readFileSync(join(ROOT, "README.md"), "utf8");
/** Where the blocks are written: inside the project, so that tsconfig's paths and vitest's aliases apply. */
const OUT = join(ROOT, ".tmp", "readme");
const PRELUDE = fileURLToPath(new URL("./readme-prelude.d.ts", import.meta.url));

interface Block {
  /** 1-based line of the opening fence in README.md. */
  line: number;
  code: string;
  run: boolean;
  file: string;
}

function readmeBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const fence = /(<!--\s*readme:\s*run\s*-->\s*\n)?```ts\n([\s\S]*?)```/g;
  for (const match of markdown.matchAll(fence)) {
    const line = markdown.slice(0, match.index + (match[1]?.length ?? 0)).split("\n").length;
    blocks.push({ line, code: match[2]!, run: match[1] !== undefined, file: join(OUT, `line-${line}.ts`) });
  }
  return blocks;
}

/** Type-checks every block as its own module (`export {}` keeps a fragment's names out of the global scope). */
function diagnosticsByFile(blocks: readonly Block[]): Map<string, string[]> {
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
  const program = ts.createProgram([PRELUDE, ...blocks.map((block) => block.file)], config.options);
  const found = new Map<string, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName ?? "(global)";
    const at = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const list = found.get(file) ?? [];
    list.push(`${at ? `block line ${at.line + 1}: ` : ""}${text}`);
    found.set(file, list);
  }
  return found;
}

const blocks = readmeBlocks(README);
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
for (const block of blocks) {
  mkdirSync(dirname(block.file), { recursive: true });
  writeFileSync(block.file, `${block.code}\nexport {};\n`);
}

describe("README code", () => {
  it("has TypeScript blocks, some of them runnable", () => {
    expect(blocks.length).toBeGreaterThan(5);
    expect(blocks.some((block) => block.run)).toBe(true);
  });

  describe("every block type-checks", () => {
    let diagnostics: Map<string, string[]>;
    beforeAll(() => {
      diagnostics = diagnosticsByFile(blocks);
    }, 60_000);

    it("the prelude itself", () => {
      expect(diagnostics.get(PRELUDE.replaceAll("\\", "/")) ?? []).toEqual([]);
      expect(diagnostics.get("(global)") ?? []).toEqual([]);
    });
    for (const block of blocks) {
      it(`README.md:${block.line}`, () => {
        expect(diagnostics.get(block.file.replaceAll("\\", "/")) ?? []).toEqual([]);
      });
    }
  });

  describe("runnable blocks run against the mock service", () => {
    let mock: MockServer;
    beforeAll(async () => {
      mock = await startMockServer({ pollInMs: 10 });
    });
    afterAll(async () => {
      await mock?.close();
    });

    for (const block of blocks.filter((candidate) => candidate.run)) {
      it(`README.md:${block.line}`, async () => {
        // The README's own configuration: the environment variables it documents.
        vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", mock.service.keys.test);
        vi.stubEnv("MERCHANT_PAYMENTS_BASE_URL", mock.url);
        vi.stubEnv("MERCHANT_PAYMENTS_MERCHANT_ID", mock.service.merchantId);
        await import(pathToFileURL(block.file).href);
      });
    }
  });
});
