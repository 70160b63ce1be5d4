/**
 * The URL rules read the same on a runtime without `URL.parse` (they use it where it exists, so that a refused string
 * costs no exception) as with it: the buyer page and return URL rules, and the wallet-link search built on them. And
 * every rule refuses a URL with white space of any kind at either end.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findWalletLink } from "../../src/index.js";
import { isBuyerPageUrl, isHttpsUrl, isPlainHttpUrl } from "../../src/validate/rules.js";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** `read()` on a runtime whose `URL` has no `parse` (Node before 22.1, older edge runtimes). */
function withoutUrlParse<T>(read: () => T): T {
  class UrlWithoutParse extends URL {
    static override parse = undefined as unknown as typeof URL.parse;
  }
  vi.stubGlobal("URL", UrlWithoutParse);
  try {
    return read();
  } finally {
    vi.unstubAllGlobals();
  }
}

const TRICKY = [
  "https://pay.example/portal/pay_1",
  "HTTPS://PAY.EXAMPLE/x",
  "https:pay.example",
  "ht\ttps://pay.example/x",
  "https://user:secret@pay.example/",
  "http://127.0.0.1:4010/portal",
  "http://[::1]/x",
  "http://app:3000/return",
  "http://localhost.example/",
  " https://pay.example/",
  "https://",
  "https:///path",
  "javascript:alert(1)",
  "data:text/html,hi",
  "ethereum:0xabc@8453/transfer",
  "/relative/path",
  "",
  "not a link",
];

const strings = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webUrl().map((url) => url.replace(/^https?/, "http")),
  fc.string(),
);

function readings(value: string) {
  return {
    https: isHttpsUrl(value),
    httpsOrLoopback: isHttpsUrl(value, true),
    plainHttp: isPlainHttpUrl(value),
    buyerPage: isBuyerPageUrl(value),
  };
}

describe("URL rules without URL.parse", () => {
  it("the runtime under test has URL.parse, so both paths are compared", () => {
    expect(typeof URL.parse).toBe("function");
    expect(withoutUrlParse(() => typeof URL.parse)).toBe("undefined");
  });

  it("every rule reads a string the same with and without URL.parse", () => {
    fc.assert(
      fc.property(strings, (value) => {
        expect(withoutUrlParse(() => readings(value))).toEqual(readings(value));
      }),
      { numRuns: 300 },
    );
  });

  it("the tricky cases read as the rules say", () => {
    for (const read of [
      (value: string) => readings(value),
      (value: string) => withoutUrlParse(() => readings(value)),
    ]) {
      expect(read("https://pay.example/portal/pay_1").https).toBe(true);
      expect(read("http://127.0.0.1:4010/portal")).toMatchObject({ https: false, httpsOrLoopback: true });
      expect(read("http://app:3000/return")).toMatchObject({ plainHttp: true, httpsOrLoopback: false });
      expect(read("https://user:secret@pay.example/").https).toBe(true);
      expect(read("http://user:secret@app:3000/").plainHttp).toBe(false);
      for (const refused of [
        " https://pay.example/",
        "javascript:alert(1)",
        "/relative/path",
        "",
        "not a link",
      ]) {
        expect(read(refused)).toEqual({
          https: false,
          httpsOrLoopback: false,
          plainHttp: false,
          buyerPage: false,
        });
      }
    }
  });

  it("the wallet link search finds the same link with and without URL.parse", () => {
    const answer = (extra: Record<string, string>) => ({ id: "pay_1", referenceId: "order-1", ...extra });
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), strings, { maxKeys: 6 }),
        (fields) => {
          const created = answer(fields);
          expect(withoutUrlParse(() => findWalletLink(created))).toBe(findWalletLink(created));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a wide creation answer is searched without an exception per refused string (each costs about 14 µs)", () => {
    let refused = 0;
    class CountingUrl extends URL {
      constructor(url: string | URL, base?: string | URL) {
        try {
          super(url, base);
        } catch (error) {
          refused++;
          throw error;
        }
      }
    }
    vi.stubGlobal("URL", CountingUrl);
    const created: Record<string, string> = { id: "pay_1", someLink: "https://pay.example/portal/pay_1" };
    // Half without a colon (refused before parsing), half with one (refused by the parser itself).
    for (let i = 0; i < 2_000; i++) created[`note${i}`] = i % 2 ? `not a link ${i}` : `note ${i}: not a link`;
    expect(findWalletLink(created)).toBe("https://pay.example/portal/pay_1");
    expect(refused).toBe(0);
  });
});

describe("URL rules and white space", () => {
  it("a URL with white space of any kind at either end is refused by every rule", () => {
    const space = fc.constantFrom(" ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u2028", "\u3000", "\ufeff");
    const refused = { https: false, httpsOrLoopback: false, plainHttp: false, buyerPage: false };
    fc.assert(
      fc.property(
        fc.webUrl().chain((url) =>
          fc.oneof(
            space.map((s) => s + url),
            space.map((s) => url + s),
          ),
        ),
        (padded) => {
          expect(readings(padded)).toEqual(refused);
          expect(readings(padded.trim()).https || readings(padded.trim()).plainHttp).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
