/**
 * The redactor's rule for any key: every spelling of the key an answer may hold (each character as is, in another
 * case, JSON-escaped, as an HTML entity or percent-encoded at any depth), the key in base64 at any alignment, and any
 * piece of at least half its secret part are found by `suspects` and left nowhere by `text`, in any surrounding
 * text. `suspects` is the first test every answer meets, so an answer it lets through unredacted is a leak.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRedactor, REDACTED } from "../../src/core/redact.js";

const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/** Printable ASCII without spaces, the characters a key may have, with letters and digits the most common. */
const keyChar = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(...ALNUM) },
  { weight: 1, arbitrary: fc.constantFrom(..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~") },
);
const HEAD = "mock_test_sk_";
const keyWithout = (left: string) =>
  fc
    .string({ unit: keyChar.filter((char) => !left.includes(char)), minLength: 16, maxLength: 40 })
    .map((secretPart) => `${HEAD}${secretPart}`);
const anyKey = keyWithout("");
/** Text around an echo: anything printable, escapes and entities included. */
const around = fc.string({ unit: fc.constantFrom(...`${ALNUM} "\\/&;%#:{}[],._-<>=`), maxLength: 40 });

const hex = (char: string) => char.charCodeAt(0).toString(16).padStart(2, "0");
/** The ways one character of the key may be written back by a service, a proxy or an encoder. */
const SPELLINGS: Record<string, (char: string) => string> = {
  "as is": (char) => char,
  "in the other case": (char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()),
  "JSON-escaped": (char) => `\\u00${hex(char)}`,
  "JSON-escaped in capitals": (char) => `\\u00${hex(char).toUpperCase()}`,
  "as a decimal HTML entity": (char) => `&#${char.charCodeAt(0)};`,
  "as a hexadecimal HTML entity": (char) => `&#x${hex(char)};`,
  "percent-encoded": (char) => `%${hex(char).toUpperCase()}`,
  "percent-encoded twice": (char) => `%25${hex(char)}`,
  "percent-encoded three times": (char) => `%2525${hex(char)}`,
};
const spell = (key: string, ways: readonly string[]) =>
  [...key].map((char, i) => SPELLINGS[ways[i % ways.length] ?? "as is"]?.(char)).join("");
/** A key with each character spelled one of a few of the ways above, in any order. */
const spelledKey = anyKey.chain((key) =>
  fc
    .subarray(Object.keys(SPELLINGS), { minLength: 1 })
    .chain((some) => fc.array(fc.constantFrom(...some), { minLength: key.length, maxLength: key.length }))
    .map((ways) => ({ key, echo: spell(key, ways) })),
);

/** `suspects` finds `echo` (a spelling of the key, or a piece of it) in `answer`, and `text` leaves none of it. */
function expectFoundAndRemoved(key: string, answer: string, echo: string) {
  const redactor = createRedactor(key);
  expect(redactor.suspects(answer)).toBe(true);
  expect(redactor.text(answer)).not.toContain(echo);
  expect(redactor.text(answer)).toContain(REDACTED);
}

describe("the redactor's rule for any key", () => {
  it.each(Object.keys(SPELLINGS))("finds and removes the key with every character written %s", (way) => {
    fc.assert(
      fc.property(anyKey, around, around, (key, before, after) => {
        const echo = spell(key, [way]);
        expectFoundAndRemoved(key, `${before}${echo}${after}`, echo);
      }),
    );
  });

  it("finds and removes the whole key in any mix of spellings", () => {
    fc.assert(
      fc.property(spelledKey, around, around, ({ key, echo }, before, after) =>
        expectFoundAndRemoved(key, `${before}${echo}${after}`, echo),
      ),
    );
  });

  it("finds and removes any piece of at least half the key's secret part", () => {
    // The secret part is what follows the key's words-and-underscores head (`mock_test_sk_`): one with an underscore
    // of its own would lend its first word to the head.
    const keyAndPiece = keyWithout("_").chain((key) => {
      const part = key.length - HEAD.length;
      const length = fc.integer({ min: Math.ceil(part / 2), max: part });
      return length.chain((size) =>
        fc
          .nat(part - size)
          .map((start) => ({ key, piece: key.slice(HEAD.length + start, HEAD.length + start + size) })),
      );
    });
    fc.assert(
      fc.property(keyAndPiece, around, around, ({ key, piece }, before, after) =>
        expectFoundAndRemoved(key, `${before}${piece}${after}`, piece),
      ),
    );
  });

  it("finds the key in base64 or base64url after any user name (a Basic credential)", () => {
    const user = fc.string({ unit: fc.constantFrom(...`${ALNUM}:`), maxLength: 12 });
    fc.assert(
      fc.property(anyKey, user, fc.boolean(), around, (key, name, url, before) => {
        const redactor = createRedactor(key);
        let encoded = btoa(`${name}${key}`);
        if (url) encoded = encoded.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
        const answer = `${before}Basic ${encoded}`;
        expect(redactor.suspects(answer)).toBe(true);
        expect(redactor.text(answer)).toContain(REDACTED);
      }),
    );
  });

  it("suspects any text with a JSON escape in it, short or long: its parsed value may spell the key", () => {
    fc.assert(
      fc.property(anyKey, around, fc.constantFrom(...ALNUM), around, (key, before, char, after) => {
        expect(createRedactor(key).suspects(`${before}\\u00${hex(char)}${after}`)).toBe(true);
      }),
    );
  });

  it("leaves a request id that holds no spelling of the key as it is", () => {
    const redactor = createRedactor(`${HEAD}WMPYExts3b7szIKpRmvqLH61L3xuBM9M`);
    const requestId = "req_01HZX8K3V9QF2B7N4M6T0RYW5C";
    expect(redactor.suspects(requestId)).toBe(false);
    expect(redactor.text(requestId)).toBe(requestId);
  });

  it("leaves an answer that holds no spelling of the key as it is", () => {
    const key = `${HEAD}WMPYExts3b7szIKpRmvqLH61L3xuBM9M`;
    const redactor = createRedactor(key);
    const answer = JSON.stringify({
      id: "pay_gE4K0FQ33S2rDKWyPDWCQfR0",
      status: "processing",
      isFinal: false,
    });
    expect(redactor.suspects(answer)).toBe(false);
    expect(redactor.text(answer)).toBe(answer);
  });
});
