/**
 * Every CAIP identifier written in the README, in docs/ and in examples/ is one the mock accepts (its rules are the SDK's, in
 * src/validate/rules.ts): a merchant copying `eip155:1:0xYourAddress` got a 400 from the mock after the SDK let it
 * through.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMockService } from "../../src/testing/index.js";
import { caip10Problem, caip19Problem } from "../../src/validate/rules.js";

const ROOT = join(__dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) return [];
    return statSync(path).isDirectory() ? files(path) : /\.(ts|md|mjs|json)$/.test(name) ? [path] : [];
  });
}

const docs = readdirSync(join(ROOT, "docs"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => join(ROOT, "docs", name));
const sources = [join(ROOT, "README.md"), ...docs, ...files(join(ROOT, "examples"))];
const ASSET = /\beip155:[0-9A-Za-z]+\/[a-z0-9]+:[^\s"'`,)\]}]+/g;
const ACCOUNT = /\beip155:[0-9A-Za-z]+:[^\s"'`,)\]}/]+/g;

function found(re: RegExp): [string, string][] {
  return sources.flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(re)]
      .map((m) => m[0].replace(/[.…]+$/, ""))
      .filter((id) => !id.includes("$") && !id.endsWith("0x"))
      .map((id) => [file.slice(ROOT.length + 1), id] as [string, string]),
  );
}

describe("README, docs and examples: identifiers the mock accepts", () => {
  const accounts = found(ACCOUNT);
  const assets = found(ASSET);

  it("finds the identifiers it checks", () => {
    expect(accounts.length).toBeGreaterThan(0);
    expect(assets.length).toBeGreaterThan(0);
  });

  it("writes every CAIP-10 account and CAIP-19 asset in a form the SDK and the mock accept", () => {
    const bad = [
      ...accounts.filter(([, id]) => caip10Problem(id) !== undefined),
      ...assets.filter(([, id]) => caip19Problem(id) !== undefined),
    ];
    expect(bad).toEqual([]);
  });

  it("registers the guide's settlement example with the mock", async () => {
    const guide = readFileSync(join(ROOT, "docs/guide.md"), "utf8");
    const line = guide.split("\n").find((l) => l.includes('destination: "eip155:1:'));
    const [, asset, destination] = /asset: "([^"]+)", destination: "([^"]+)"/.exec(line ?? "") ?? [];
    const mock = createMockService();
    const res = await mock.fetch(`${mock.baseUrl}/v1/merchants/${mock.merchantId}/settlements/crypto`, {
      method: "POST",
      headers: { "Api-Key": mock.keys.test, "Content-Type": "application/json" },
      body: JSON.stringify({ settlements: [{ asset, destination }] }),
    });
    expect(res.status).toBe(201);
  });
});
