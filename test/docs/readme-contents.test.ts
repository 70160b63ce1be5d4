/**
 * What the README promises a newcomer, checked: it fits the budget (16 KB, issue #28) and keeps the newcomer's
 * sections first (install, a hello world against the mock, the quickstart, testing, errors, then links to docs/); it
 * says how to install before the package is published and keeps its commands (the mock, the demo, `npm test`); every
 * client option is in docs/configuration.md's table; the relative links of the README and of every docs/ page lead
 * somewhere; and the pino example really prints the SDK's debug lines (pino's own level is `info`).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/testing/index.js";
import { documentationFiles, ROOT } from "./doc-blocks.js";

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const CONFIGURATION = readFileSync(join(ROOT, "docs/configuration.md"), "utf8");
/** The README's budget in bytes (issue #28); `scripts/check-budgets.mjs` checks it in CI too. */
const README_BUDGET_BYTES = 16 * 1024;

/** The property names of the public `ClientOptions`, as the compiler sees them through `src/index.ts`. */
function clientOptionNames(): string[] {
  const program = ts.createProgram([join(ROOT, "src/index.ts")], { strict: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(join(ROOT, "src/index.ts"));
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  const exported =
    moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === "ClientOptions");
  if (!exported) throw new Error("ClientOptions is not exported from src/index.ts");
  const type = checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(exported));
  return checker.getPropertiesOfType(type).map((property) => property.name);
}

/** The first cells of docs/configuration.md's options table (`| \`apiKey\` | …`), each option named in it. */
function optionsTableNames(): Set<string> {
  const table = CONFIGURATION.slice(CONFIGURATION.indexOf("| Option | Default | Notes |"));
  const rows = table.slice(0, table.indexOf("\n\n")).split("\n").slice(2);
  const names = rows.flatMap((row) =>
    [...(row.split("|")[1] ?? "").matchAll(/`(\w+)`/g)].map((m) => m[1] ?? ""),
  );
  return new Set(names);
}

describe("docs/configuration.md", () => {
  it("lists every client option in the options table", () => {
    const names = clientOptionNames();
    expect(names.length).toBeGreaterThan(15);
    const table = optionsTableNames();
    expect(names.filter((name) => !table.has(name))).toEqual([]);
  }, 60_000);
});

describe("README contents", () => {
  it("fits in 16 KB", () => {
    expect(Buffer.byteLength(README)).toBeLessThanOrEqual(README_BUDGET_BYTES);
  });

  it("says how to install before the package is published: a packed tarball", () => {
    expect(README).toMatch(/npm pack/);
    expect(README).toMatch(/npm install \S+\.tgz/);
  });

  it("keeps its commands: the mock, the demo, the click-through shop and the tests", () => {
    expect(README).toContain("npx merchant-payments-mock");
    expect(README).toContain("npm run demo ");
    expect(README).toContain("npm run demo -- --serve");
    expect(README).toMatch(/^npm test /m);
  });

  it("states verifyReturn's short default wait", () => {
    expect(README).toMatch(/`wait: true` waits \*\*10 seconds at most\*\*/);
  });

  it("keeps the newcomer's sections first, and everything else in docs/", () => {
    const order = [
      "## Install",
      "## Hello world",
      "## Quickstart",
      "## Testing with MSW",
      "## Errors",
      "## Documentation",
    ];
    const positions = order.map((heading) => README.indexOf(`\n${heading}`));
    expect(positions.every((at) => at > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const doc of [
      "docs/configuration.md",
      "docs/polling.md",
      "docs/retries.md",
      "docs/reading-modes.md",
      "docs/runtimes.md",
      "docs/mock.md",
      "examples/README.md",
      "docs/api-reference.md",
      "CONTRIBUTING.md",
    ]) {
      expect(README).toContain(`](${doc}`);
    }
  });

  it("no sentence is glued to a table: a table ends with an empty line, and a row ends with its last cell", () => {
    const glued: string[] = [];
    for (const file of [...documentationFiles(), "CONTRIBUTING.md", "examples/README.md"]) {
      const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
      lines.forEach((line, at) => {
        if (!line.startsWith("|")) return;
        const next = lines[at + 1] ?? "";
        if (!line.trimEnd().endsWith("|") || (next !== "" && !next.startsWith("|")))
          glued.push(`${file}:${at + 1}`);
      });
    }
    expect(glued).toEqual([]);
  });

  it("every relative link of the README, CONTRIBUTING, examples/ and docs/ leads to a file", () => {
    const files = [...documentationFiles(), "CONTRIBUTING.md", "examples/README.md"];
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (!target || /^[a-z]+:/.test(target)) continue;
        const resolved = join(ROOT, file, "..", target);
        const fromRoot = resolved.slice(ROOT.length).replaceAll("\\", "/");
        // The generated API reference: `npm run test:docs` renders it and checks each page and anchor.
        if (fromRoot.startsWith("docs/api/")) continue;
        if (!existsSync(resolved)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("the pino example of docs/configuration.md", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ pollInMs: 10 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it("prints the SDK's debug line for a call", async () => {
    const block = /```ts\n((?:(?!```)[\s\S])*?from "pino";[\s\S]*?)```/.exec(CONFIGURATION)?.[1];
    expect(block).toBeDefined();
    const dir = join(ROOT, ".tmp", "readme-pino");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "block.ts");
    writeFileSync(file, `${block}\nexport {};\n`);
    const { stdout } = await promisify(execFile)(join(ROOT, "node_modules/.bin/tsx"), [file], {
      cwd: ROOT,
      timeout: 60_000,
      env: {
        ...process.env,
        MERCHANT_PAYMENTS_API_KEY: mock.service.keys.test,
        MERCHANT_PAYMENTS_BASE_URL: mock.url,
        MERCHANT_PAYMENTS_MERCHANT_ID: mock.service.merchantId,
      },
    });
    const lines = stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; message?: string });
    expect(
      lines.some(
        (line) =>
          line.level === 20 && /merchant-payments: GET \/v1\/merchants -> 200/.test(line.message ?? ""),
      ),
    ).toBe(true);
  }, 90_000);
});
