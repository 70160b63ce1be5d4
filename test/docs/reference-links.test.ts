/**
 * The README's and docs/'s links into the API reference (issue #28): each method a page names in prose is a link to
 * its entry in the generated reference, and `npm run test:docs` (`scripts/check-docs.mjs`) fails on a link whose page
 * or anchor the reference does not have. The rule itself, on small pages and a small rendered folder; and the real
 * pages, which must name no method without its link.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the scripts, without types
import * as links from "../../scripts/reference-links.mjs";

interface Page {
  file: string;
  text: string;
}
const { documentationPages, referenceLinkProblems, unlinkedMethods } = links as {
  documentationPages(): Page[];
  referenceLinkProblems(dir: string, pages?: Page[]): string[];
  unlinkedMethods(pages: Page[]): string[];
};

const rendered = mkdtempSync(join(tmpdir(), "merchant-payments-links-"));
mkdirSync(join(rendered, "interfaces"));
writeFileSync(
  join(rendered, "interfaces", "merchant-payments.Checkout.html"),
  '<h3 id="create">create</h3><h3 id="verifyreturn">verifyReturn</h3>',
);
afterAll(() => rmSync(rendered, { recursive: true, force: true }));

const CHECKOUT = "docs/api/interfaces/merchant-payments.Checkout.html";

describe("links into the API reference", () => {
  it("a method named in prose without a link is reported; its first mention linked is enough", () => {
    const pages = [
      { file: "README.md", text: "Call `checkout.verifyReturn` on the return.\n" },
      {
        file: "docs/a.md",
        text: `Call [\`checkout.create\`](api/${CHECKOUT.slice(9)}#create), then \`checkout.create\` again.\n`,
      },
      { file: "docs/b.md", text: "```ts\nawait client.checkout.create(input);\n```\n" },
    ];
    expect(unlinkedMethods(pages)).toEqual([
      "README.md:1: `checkout.verifyReturn` is not linked to the API reference",
    ]);
  });

  it("a link to a page or an anchor the reference does not have is reported", () => {
    const pages = [
      {
        file: "README.md",
        text: `[\`checkout.verifyReturn\`](${CHECKOUT}#verifyreturn) and [\`checkout.status\`](${CHECKOUT}#status)\n`,
      },
      {
        file: "docs/x.md",
        text: "[`payments.cancel`](api/interfaces/merchant-payments.Payments.html#cancel)\n",
      },
    ];
    expect(referenceLinkProblems(rendered, pages)).toEqual([
      `README.md:1: ${CHECKOUT} has no anchor #status`,
      "docs/x.md:1: docs/api/interfaces/merchant-payments.Payments.html is not a page of the reference",
    ]);
  });

  it("the README and every docs/ page link each method they name", () => {
    expect(unlinkedMethods(documentationPages())).toEqual([]);
  });
});
