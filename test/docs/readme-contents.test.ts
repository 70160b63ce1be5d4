/**
 * What the README promises a newcomer, checked: every client option is in the options table; it says how to install
 * before the package is published and how to start the click-through shop; its relative links lead somewhere; the
 * internals live in docs/; and its pino example really prints the SDK's debug lines (pino's own level is `info`).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/testing/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const README = readFileSync(join(ROOT, "README.md"), "utf8");
/** Written by other work in the same release: linked from the README before they exist in every checkout. */
const DOCS_WRITTEN_ELSEWHERE = new Set(["docs/runtimes.md", "docs/observability.md", "docs/mock.md"]);

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

/** The first cells of the options table (`| \`apiKey\` | …`), each option named in it. */
function optionsTableNames(): Set<string> {
  const table = README.slice(README.indexOf("| Option | Default | Notes |"));
  const rows = table.slice(0, table.indexOf("\n\n")).split("\n").slice(2);
  const names = rows.flatMap((row) =>
    [...(row.split("|")[1] ?? "").matchAll(/`(\w+)`/g)].map((m) => m[1] ?? ""),
  );
  return new Set(names);
}

describe("README contents", () => {
  it("lists every client option in the options table", () => {
    const names = clientOptionNames();
    expect(names.length).toBeGreaterThan(15);
    const table = optionsTableNames();
    expect(names.filter((name) => !table.has(name))).toEqual([]);
  }, 60_000);

  it("says how to install before the package is published: a packed tarball", () => {
    expect(README).toMatch(/npm pack/);
    expect(README).toMatch(/npm install \S+\.tgz/);
  });

  it("shows the click-through shop and says how long its database takes", () => {
    expect(README).toContain("npm run demo -- --serve");
    expect(README).not.toMatch(/takes a few seconds/);
  });

  it("states verifyReturn's short default wait", () => {
    expect(README).toMatch(/`wait: true` waits \*\*10 seconds at most\*\*/);
  });

  it("keeps the newcomer's sections first, and the internals in docs/", () => {
    const order = [
      "## Install",
      "## Configure",
      "## Quickstart",
      "## The namespaces",
      "## Errors",
      "## Testing with the mock",
    ];
    const positions = order.map((heading) => README.indexOf(`\n${heading}`));
    expect(positions.every((at) => at > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(README).not.toMatch(/\n## (Performance|Reliability and security guarantees|Development)\n/);
    for (const doc of [
      "docs/performance.md",
      "docs/reliability.md",
      "docs/design-notes.md",
      "CONTRIBUTING.md",
    ]) {
      expect(README).toContain(`](${doc}`);
    }
    expect(README.length).toBeLessThan(36_000);
  });

  it("every relative link of the README and of docs/ leads to a file", () => {
    const files = [
      "README.md",
      "CONTRIBUTING.md",
      "docs/performance.md",
      "docs/reliability.md",
      "docs/design-notes.md",
    ];
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (!target || /^[a-z]+:/.test(target)) continue;
        const resolved = join(ROOT, file, "..", target);
        const fromRoot = resolved.slice(ROOT.length).replaceAll("\\", "/");
        if (!existsSync(resolved) && !DOCS_WRITTEN_ELSEWHERE.has(fromRoot)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("the README's pino example", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ pollInMs: 10 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it("prints the SDK's debug line for a call", async () => {
    const block = /```ts\n((?:(?!```)[\s\S])*?from "pino";[\s\S]*?)```/.exec(README)?.[1];
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
