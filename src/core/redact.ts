/**
 * Keeps the API key out of everything the SDK returns or throws. A service or a proxy may echo the request's headers
 * back (a debug page, a careless error message, a request id), and not always verbatim: JSON escapes any character
 * as `\u00XX` (and `"`, `\` and `/` by name), HTML as entities, URLs as `%XX`. The key is printable ASCII without
 * spaces, so each of its characters is matched in every one of those spellings (percent-encoding at any depth); the
 * key in base64 (a `Basic` credential) is matched too, and so is a piece of it long enough to be no accident (a key
 * split across two headers or two fields).
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
  // Every spelling of the whole key: a large pattern, compiled only when a text could hold one (mayHoldWhole).
  let whole: RegExp | undefined;
  const wholePattern = () => (whole ??= new RegExp(secret.split("").map(spellings).join(""), "gi"));
  /**
   * Whether a spelling of the whole key may be in a text: each one but the key itself (in any case) needs `\`, `&`
   * or `%`. The big pattern's case-insensitive match never maps a character outside ASCII onto the key's, so a text
   * it matches holds the key in some case, or an escape character. Ordinary answers stop here. Three `includes` and
   * the key alone: one regex scan for a character class beside the key took four times as long (a 650-byte answer).
   */
  const keyInAnyCase = new RegExp(escapeRegExp(secret), "i");
  const mayHoldWhole = (input: string) =>
    input.includes("\\") || input.includes("&") || input.includes("%") || keyInAnyCase.test(input);
  const base64 = base64Pattern(secret);
  const fragments = fragmentPattern(secret);
  /**
   * What `suspects` looks for case-sensitively, in one scan: a `\u` escape (it can spell an HTML entity or a percent
   * sign that spells the key once decoded: the parsed value is looked inside then), the key in base64, a piece of it.
   */
  const escapeOrPiece = new RegExp(`\\\\u|${base64.source}|${fragments.source}`);
  const suspects = (input: string) => {
    if (escapeOrPiece.test(input)) return true;
    // Every spelling of the whole key is at least as long as the key: a shorter text (a request id) cannot hold one.
    if (input.length < secret.length || !mayHoldWhole(input)) return false;
    const pattern = wholePattern();
    pattern.lastIndex = 0;
    return pattern.test(input);
  };
  // A text with nothing to redact (a request id, almost every answer) is returned after `suspects` alone: counted
  // under valgrind, `text` of a request id runs 2,200 instructions instead of 2,700 on Node 22, 1,500 instead of 3,500
  // on Node 24. (A first scan for pieces and escape characters before `escapeOrPiece` was cheaper on Node 24 and half
  // as dear again on Node 22: irregexp's speed on an alternation differs from one V8 to the next.)
  const text = (input: string) => (suspects(input) ? redactAll(input) : input);
  const redactAll = (input: string) => {
    const unwholed = mayHoldWhole(input) ? input.replace(wholePattern(), REDACTED) : input;
    return redactFragments(unwholed.replace(base64, REDACTED), secret, fragments);
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

/**
 * The key in base64 (and base64url), at each of the three alignments it can have inside a longer encoded text: a
 * `Basic` credential is `base64(user:key)`, and a proxy may echo it. Only the characters that depend on the key
 * alone are matched (case-sensitively: base64 is).
 */
function base64Pattern(secret: string): RegExp {
  const forms = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const encoded = btoa("\0".repeat(offset) + secret).replace(/=+$/, "");
    const core = encoded.slice(Math.ceil((offset * 4) / 3), Math.floor(((offset + secret.length) * 4) / 3));
    forms.add(core);
    forms.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  // A key too short to leave a few characters of its own in base64 has no base64 spelling worth matching.
  const long = [...forms].filter((form) => form.length >= 4);
  return new RegExp(long.map(escapeRegExp).join("|") || "(?!)", "g");
}

/** The key's public head (`<service_prefix>_test_`, `mock_test_sk_`): words ending in `_` before the secret part. */
const PUBLIC_HEAD_RE = /^(?:[a-z]+_)*/i;

/**
 * Pieces of the key's secret part long enough to be no accident: a key split in two (across two headers, two
 * fields) leaves at least half its secret part in one piece, and that piece holds one of these windows (taken at a
 * stride, so that the pattern stays a handful of literals: it runs on every answer).
 */
function fragmentPattern(secret: string): RegExp {
  const head = PUBLIC_HEAD_RE.exec(secret)?.[0].length ?? 0;
  const half = Math.ceil((secret.length - head) / 2);
  // Shorter windows would match ordinary text.
  const length = Math.max(4, Math.min(8, half));
  // A run of `half` characters holds a window when windows start every `half - length + 1` characters.
  const stride = Math.max(1, half - length + 1);
  const pieces = new Set<string>();
  for (let start = head; start + length <= secret.length; start += stride) {
    pieces.add(secret.slice(start, start + length));
  }
  if (secret.length - length >= head) pieces.add(secret.slice(secret.length - length));
  return new RegExp([...pieces].map(escapeRegExp).join("|") || "(?!)", "g");
}

/** Replaces each piece of the key found by `pattern`, grown over the key's neighbouring characters around it. */
function redactFragments(input: string, secret: string, pattern: RegExp): string {
  pattern.lastIndex = 0;
  let out = "";
  let last = 0;
  for (let match = pattern.exec(input); match !== null; match = pattern.exec(input)) {
    const at = secret.indexOf(match[0]);
    let start = match.index;
    let end = start + match[0].length;
    for (let i = at - 1; i >= 0 && start > last && input[start - 1] === secret[i]; i--) start--;
    for (let i = at + match[0].length; i < secret.length && input[end] === secret[i]; i++) end++;
    out += input.slice(last, start) + REDACTED;
    last = end;
    pattern.lastIndex = end;
  }
  return last === 0 ? input : out + input.slice(last);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** Every way one character of the key may be written back: as is, JSON-escaped, as an HTML entity, percent-encoded. */
function spellings(char: string): string {
  const code = char.charCodeAt(0);
  const hex = code.toString(16).padStart(2, "0");
  const forms = [
    escapeRegExp(char),
    `\\\\u00${hex}`,
    `&#0*${code};`,
    `&#x0*${hex};`,
    // Percent-encoded once, or again and again (`%2541`, `%252541`): a URL quoted inside a URL.
    `%(?:25)*${hex}`,
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
