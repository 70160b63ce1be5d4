import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// One spelling of each environment variable across the examples: the SDK reads MERCHANT_PAYMENTS_API_KEY,
// MERCHANT_PAYMENTS_BASE_URL and MERCHANT_PAYMENTS_MERCHANT_ID, so an example naming another (MERCHANT_ID,
// MP_KEY…) would leave a copied app unconfigured.
const OTHER_SPELLINGS =
  /(?<![A-Z_])(?:MERCHANT_ID|MP_[A-Z_]+|MERCHANT_PAYMENTS_(?:KEY|URL|MERCHANT))(?![A-Z_])/g;

async function exampleFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|md)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("examples: environment variables", () => {
  it("name the service's settings only as MERCHANT_PAYMENTS_API_KEY, _BASE_URL and _MERCHANT_ID", async () => {
    const files = await exampleFiles("examples");
    expect(files.length).toBeGreaterThan(10);
    const found: string[] = [];
    for (const file of files) {
      for (const match of (await readFile(file, "utf8")).matchAll(OTHER_SPELLINGS))
        found.push(`${file}: ${match[0]}`);
    }
    expect(found).toEqual([]);
  });
});
