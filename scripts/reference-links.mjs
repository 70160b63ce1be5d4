// The README's and docs/*.md's links into the API reference: every method they name in prose links to its entry in
// the generated reference (`docs/api/…html#anchor`), and every such link names a page and an anchor that exist.
// Used by check-docs.mjs (on the reference it renders) and test/docs/reference-links.test.ts.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Where `npm run docs` writes the reference (typedoc.json's `out`), from the repository root. */
export const REFERENCE_DIR = "docs/api";

/** The README and every page of docs/ (the generated reference aside), as `{ file, text }` with root-relative names. */
export function documentationPages(root = ROOT) {
  const docs = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs].map((file) => ({ file, text: readFileSync(join(root, file), "utf8") }));
}

/** The text of a page outside its fenced code blocks, with each block's lines blanked (line numbers kept). */
function prose(text) {
  return text.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ""));
}

const lineOf = (text, index) => text.slice(0, index).split("\n").length;

const METHODS =
  "create|retrieve|list|createCrypto|updateCrypto|status|cancel|waitForFinal|watch|verifyReturn|fetchAction";
/**
 * A method of the client named in inline code (`checkout.verifyReturn`, `client.payments.waitForFinal(…)`,
 * `withOptions()`); group 2 is its name without `client.` and arguments.
 */
const METHOD = new RegExp(
  `(\\[)?\`(?:client\\.)?((?:merchants|settlements|payments|checkout|gateway)\\.(?:${METHODS})|withOptions)\\b(?:\\([^\`]*\\))?\``,
  "g",
);

/** Methods named in prose whose first mention on the page is not a link to the reference. */
export function unlinkedMethods(pages) {
  const problems = [];
  for (const { file, text } of pages) {
    const body = prose(text);
    const seen = new Set();
    for (const match of body.matchAll(METHOD)) {
      if (seen.has(match[2])) continue;
      seen.add(match[2]);
      const end = match.index + match[0].length;
      const target = /^\]\(([^)#\s]*)/.exec(body.slice(end))?.[1];
      if (match[1] === "[" && target !== undefined && isReferencePage(file, target)) continue;
      const named = match[0].replace(/^\[/, "");
      problems.push(`${file}:${lineOf(body, match.index)}: ${named} is not linked to the API reference`);
    }
  }
  return problems;
}

/** True when a link of `file` to `target` leads into the reference. */
function isReferencePage(file, target, root = ROOT) {
  const page = relative(join(root, REFERENCE_DIR), resolve(root, dirname(file), target));
  return page !== "" && !page.startsWith("..");
}

/** The links of the pages into the reference: `{ file, line, page, anchor }`, page relative to the reference's root. */
export function referenceLinks(pages, root = ROOT) {
  const links = [];
  for (const { file, text } of pages) {
    const body = prose(text);
    for (const match of body.matchAll(/\]\(([^)#\s]+)(?:#([^)\s]*))?\)/g)) {
      const target = resolve(root, dirname(file), match[1]);
      const page = relative(join(root, REFERENCE_DIR), target).replaceAll("\\", "/");
      if (page.startsWith("..") || page === "") continue;
      links.push({ file, line: lineOf(body, match.index), page, anchor: match[2] });
    }
  }
  return links;
}

/** Links into the reference rendered in `renderedDir` whose page or anchor does not exist, and unlinked methods. */
export function referenceLinkProblems(renderedDir, pages = documentationPages()) {
  const problems = unlinkedMethods(pages);
  const anchors = new Map();
  for (const { file, line, page, anchor } of referenceLinks(pages)) {
    const path = join(renderedDir, page);
    if (!existsSync(path)) {
      problems.push(`${file}:${line}: ${REFERENCE_DIR}/${page} is not a page of the reference`);
      continue;
    }
    if (!anchors.has(path)) {
      anchors.set(
        path,
        new Set([...readFileSync(path, "utf8").matchAll(/\bid="([^"]+)"/g)].map((m) => m[1])),
      );
    }
    if (anchor && !anchors.get(path).has(anchor)) {
      problems.push(`${file}:${line}: ${REFERENCE_DIR}/${page} has no anchor #${anchor}`);
    }
  }
  return problems;
}
