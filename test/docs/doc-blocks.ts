/**
 * The code blocks of the documentation (README.md and every docs/*.md page), as the tests of test/docs/ read them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Where the blocks are written: inside the project, so that tsconfig's paths and vitest's aliases apply. */
export const OUT = join(ROOT, ".tmp", "doc-blocks");

export interface DocBlock {
  /** `README.md:43`: the page and the 1-based line of the opening fence. */
  where: string;
  language: string;
  code: string;
  /** The `<!-- docs: … -->` marker before the block: `run`, `shop`, `msw 2`, `msw 3`. */
  marker: string | undefined;
  file: string;
}

/** README.md and every docs/*.md page. */
export function documentationFiles(): string[] {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort();
  return ["README.md", ...docs.map((name) => `docs/${name}`)];
}

export function codeBlocks(page: string): DocBlock[] {
  const markdown = readFileSync(join(ROOT, page), "utf8");
  const blocks: DocBlock[] = [];
  const fence = /(?:<!--\s*(?:docs|readme):\s*([\w ]+?)\s*-->\s*\n)?^```(\w*)\n([\s\S]*?)^```$/gm;
  for (const match of markdown.matchAll(fence)) {
    const line = markdown.slice(0, match.index).split("\n").length + (match[1] === undefined ? 0 : 1);
    const name = `${page.replace(/\W+/g, "-")}-${line}`;
    blocks.push({
      where: `${page}:${line}`,
      language: match[2] ?? "",
      code: match[3] ?? "",
      marker: match[1],
      file: join(OUT, `${name}.ts`),
    });
  }
  return blocks;
}
