/**
 * Keeps the API key out of everything the SDK returns or throws. A service or a proxy may echo the request's headers
 * back (a debug page, a careless error message, a request id), and not always verbatim: JSON escapes any character
 * as `\u00XX` (and `"`, `\` and `/` by name), HTML as entities, URLs as `%XX`. The key is printable ASCII without
 * spaces, so each of its characters is matched in every one of those spellings.
 *
 * Applied after parsing: a JSON body is parsed first (escapes resolved), then every string in it (keys included) is
 * redacted, so no spelling survives and the redacted value is still the structure that arrived.
 *
 * @module
 */

/** What stands where the key was. */
export const REDACTED = "[redacted]";

/** Removes one secret from text and from parsed values. */
export interface Redactor {
  /** `text` with every spelling of the secret replaced by {@link REDACTED}. */
  text(text: string): string;
  /** True when `text` may hold the secret in some spelling, or JSON escapes that could hide one. */
  suspects(text: string): boolean;
  /** A copy of a parsed JSON value with every string (object keys included) redacted. Depth is bounded by the caller. */
  value(value: unknown): unknown;
}

/** The redactor of a client: with no secret (App-Id credentials are public), it changes nothing. */
export function createRedactor(secret: string | undefined): Redactor {
  if (!secret) return { text: (text) => text, suspects: () => false, value: (value) => value };
  const pattern = new RegExp(secret.split("").map(spellings).join(""), "gi");
  const text = (input: string) => input.replace(pattern, REDACTED);
  const suspects = (input: string) => {
    pattern.lastIndex = 0;
    // A `\u` escape can spell an HTML entity or a percent sign that spells the key once decoded: look inside then.
    return input.includes("\\u") || pattern.test(input);
  };
  const value = (input: unknown): unknown => {
    if (typeof input === "string") return text(input);
    if (Array.isArray(input)) return input.map(value);
    if (typeof input !== "object" || input === null) return input;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(input)) {
      // `__proto__` from JSON.parse is an own key: assigning it would set the prototype instead.
      Object.defineProperty(out, text(key), {
        value: value(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return { text, suspects, value };
}

/** Every way one character of the key may be written back: as is, JSON-escaped, as an HTML entity, percent-encoded. */
function spellings(char: string): string {
  const code = char.charCodeAt(0);
  const hex = code.toString(16).padStart(2, "0");
  const forms = [
    char.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&"),
    `\\\\u00${hex}`,
    `&#0*${code};`,
    `&#x0*${hex};`,
    `%${hex}`,
  ];
  const named = JSON_SHORT_ESCAPES[char];
  if (named) forms.push(named);
  const entity = HTML_NAMED_ENTITIES[char];
  if (entity) forms.push(entity);
  return `(?:${forms.join("|")})`;
}

/** JSON's named escapes of printable characters (as regex source). */
const JSON_SHORT_ESCAPES: Record<string, string> = { '"': '\\\\"', "\\": "\\\\\\\\", "/": "\\\\/" };
/** HTML's named entities of printable ASCII (as regex source). */
const HTML_NAMED_ENTITIES: Record<string, string> = {
  '"': "&quot;",
  "&": "&amp;",
  "'": "&(?:apos|#39);",
  "<": "&lt;",
  ">": "&gt;",
};
