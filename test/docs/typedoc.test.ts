// The API reference as a reader meets it: TypeDoc run once with typedoc.json and its plugin (as `npm run docs`
// does), then asserted on the reflection model and on the rendered HTML of the pages a merchant's engineer opens.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Application,
  ArrayType,
  type DeclarationReflection,
  IntersectionType,
  type ProjectReflection,
  ReferenceType,
  ReflectionFlag,
  ReflectionKind,
  type SomeType,
  TSConfigReader,
  TypeDocReader,
  TypeOperatorType,
  UnionType,
} from "typedoc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let project: ProjectReflection;
let out: string;

beforeAll(async () => {
  const app = await Application.bootstrapWithPlugins({ logLevel: "Error" }, [
    new TypeDocReader(),
    new TSConfigReader(),
  ]);
  const converted = await app.convert();
  if (!converted) throw new Error("TypeDoc could not convert the project");
  project = converted;
  out = await mkdtemp(join(tmpdir(), "merchant-payments-typedoc-"));
  await app.generateDocs(project, out);
}, 240_000);

afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

/** The exported types of the main entry point that the schemas define: every input and result. */
function schemaInterfaces(): DeclarationReflection[] {
  return project
    .getReflectionsByKind(ReflectionKind.Interface)
    .filter((r): r is DeclarationReflection => r.parent?.name === "merchant-payments")
    .filter((r) => r.sources?.some((s) => s.fileName.startsWith("src/schemas/")) ?? false);
}

function declaration(name: string): DeclarationReflection {
  const found = project.getChildByName(["merchant-payments", name]);
  if (!found?.isDeclaration()) throw new Error(`no exported declaration ${name}`);
  return found;
}

function field(owner: string, name: string): DeclarationReflection {
  const found = declaration(owner).getChildByName(name);
  if (!found?.isDeclaration()) throw new Error(`${owner} has no field ${name}`);
  return found;
}

/** Every reference inside a type, type arguments included. */
function references(type: SomeType | undefined): ReferenceType[] {
  if (type instanceof ReferenceType) return [type, ...(type.typeArguments ?? []).flatMap(references)];
  if (type instanceof UnionType || type instanceof IntersectionType) return type.types.flatMap(references);
  if (type instanceof ArrayType) return references(type.elementType);
  if (type instanceof TypeOperatorType) return references(type.target);
  return [];
}

/** The rendered page of an exported declaration, as text (tags removed, a few entities decoded). */
async function pageText(folder: "interfaces" | "types", name: string): Promise<string> {
  return htmlText(await readFile(join(out, folder, `merchant-payments.${name}.html`), "utf8"));
}

function htmlText(html: string): string {
  return html
    .replace(/<br\/?>/g, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** The signature boxes of a page (`successUrl: string`), one string each. */
async function signatures(name: string): Promise<string[]> {
  const html = await readFile(join(out, "interfaces", `merchant-payments.${name}.html`), "utf8");
  return [...html.matchAll(/<div class="tsd-signature">(.*?)<\/div>/gs)].map((m) => htmlText(m[1] ?? ""));
}

describe("API reference: inputs and results", () => {
  it("documents every exported input and result with its fields, their doc comments and types", () => {
    const types = schemaInterfaces();
    expect(types.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "CheckoutWithRedirectsInput",
        "CheckoutWithoutRedirectsInput",
        "CreatePaymentInput",
        "CreateMerchantInput",
        "CryptoSettlementInput",
        "CreateCheckoutResponse",
        "PaymentStatusResult",
        "CancellationResult",
        "Merchant",
        "ListMerchantsResponse",
        "WalletRpcAction",
      ]),
    );
    for (const type of types) {
      for (const member of type.children ?? []) {
        const where = `${type.name}.${member.name}`;
        expect(
          member.comment?.summary
            .map((part) => part.text)
            .join("")
            .trim(),
          where,
        ).not.toBe("");
        expect(member.type, where).toBeDefined();
      }
    }
    expect(
      declaration("CheckoutWithRedirectsInput")
        .children?.map((c) => c.name)
        .sort(),
    ).toEqual(["amount", "errorUrl", "redirects", "referenceId", "successUrl"]);
  });

  it("shows the fields as the type's own: no private schema above them, no 'inherited from z.output'", async () => {
    for (const type of schemaInterfaces()) {
      for (const parent of type.extendedTypes ?? []) {
        // What an interface extends is a page of this reference (WalletRpcAction extends WalletRpcActionRaw).
        expect(
          parent instanceof ReferenceType && parent.reflection,
          `${type.name} extends ${parent}`,
        ).toBeTruthy();
      }
      for (const member of type.children ?? []) {
        const inherited = member.inheritedFrom ?? member.overwrites;
        if (inherited)
          expect(inherited.reflection, `${type.name}.${member.name}: ${inherited.name}`).toBeDefined();
        else
          expect(member.flags.hasFlag(ReflectionFlag.Inherited), `${type.name}.${member.name}`).toBe(false);
      }
    }
    const page = await pageText("interfaces", "PaymentStatusResult");
    expect(page).not.toMatch(/Inherited from|Overrides|paymentStatusResultObject|z\.output/);
  });

  it("shows no default value on any field (a schema expression is not a default)", async () => {
    for (const type of schemaInterfaces()) {
      for (const member of type.children ?? []) {
        expect(member.defaultValue, `${type.name}.${member.name}`).toBeUndefined();
      }
      for (const signature of await signatures(type.name)) {
        expect(signature, type.name).not.toMatch(/ = /);
      }
    }
  });

  it("shows named types as links to their pages, never as a structure or a private schema", async () => {
    for (const type of schemaInterfaces()) {
      for (const member of type.children ?? []) {
        for (const reference of references(member.type)) {
          const where = `${type.name}.${member.name}: ${reference.name}`;
          expect(reference.package, where).not.toBe("zod");
          // A name of this package always has its page; only the language's own types (Record) have none.
          if (reference.package !== "typescript") expect(reference.reflection, where).toBeDefined();
        }
      }
    }
    const named = (owner: string, name: string) =>
      references(field(owner, name).type).map((reference) => reference.reflection?.name);
    expect(named("CheckoutWithRedirectsInput", "amount")).toEqual(["Iso4217AmountInput"]);
    expect(named("PaymentStatusResult", "info")).toEqual(["PaymentInfo"]);
    expect(named("Merchant", "settlements")).toEqual(["MerchantSettlements"]);
    expect(named("ListMerchantsResponse", "data")).toEqual(["MerchantListItem"]);
    expect(named("FetchActionResponse", "actions")).toEqual(["Action"]);

    const [amount] = (await signatures("CheckoutWithRedirectsInput")).filter((s) => s.startsWith("amount"));
    expect(amount).toBe("amount: Iso4217AmountInput");
    const html = await readFile(
      join(out, "interfaces", "merchant-payments.CheckoutWithRedirectsInput.html"),
      "utf8",
    );
    expect(html).toContain('href="merchant-payments.Iso4217AmountInput.html"');
  });

  it("shows a status field by the name of its open enum (PaymentStatus, MerchantStatus)", () => {
    const named = (owner: string) => references(field(owner, "status").type)[0]?.reflection?.name;
    expect(named("PaymentStatusResult")).toBe("PaymentStatus");
    expect(named("CancellationResult")).toBe("PaymentStatus");
    expect(named("Merchant")).toBe("MerchantStatus");
    expect(named("CreatedMerchant")).toBe("MerchantStatus");
  });

  it("shows both kinds of CreateCheckoutInput with their fields on its page", async () => {
    const members = references(declaration("CreateCheckoutInput").type).map((r) => r.reflection?.name);
    expect(members).toEqual(["CheckoutWithRedirectsInput", "CheckoutWithoutRedirectsInput"]);

    const page = await pageText("types", "CreateCheckoutInput");
    const withRedirects = page.indexOf("A checkout with redirects");
    const withoutRedirects = page.indexOf("A checkout without redirects");
    expect(withRedirects).toBeGreaterThan(-1);
    expect(withoutRedirects).toBeGreaterThan(withRedirects);
    // Each member's fields with their doc comments, under that member.
    const first = page.slice(withRedirects, withoutRedirects);
    const second = page.slice(withoutRedirects);
    expect(first).toMatch(/successUrl: string\s+Where the portal sends the buyer on success/);
    expect(first).toMatch(/referenceId: string\s+The merchant's own order identifier/);
    expect(first).toMatch(/amount: Iso4217AmountInput/);
    expect(second).toMatch(/redirects: false\s+Explicit opt-out of redirects/);
    expect(second).toMatch(/successUrl\?: undefined\s+Must be left out when redirects is false/);
  });
});

describe("API reference: modules", () => {
  it("names each module for what it holds (the import path), never 'index'", () => {
    const names = project.getReflectionsByKind(ReflectionKind.Module).map((module) => module.name);
    expect(names.sort()).toEqual([
      "merchant-payments",
      "merchant-payments/testing",
      "merchant-payments/testing/msw",
    ]);
  });
});
