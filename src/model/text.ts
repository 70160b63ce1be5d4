/**
 * Bounded pieces of text that hold only themselves.
 *
 * @module
 */

/**
 * The first `maxChars` UTF-16 code units of `text`, as a string of its own (a high surrogate left alone at the cut is
 * dropped). `text.slice(0, n)` is not one: V8 answers a "sliced string", a view that keeps the whole parent alive, so
 * a 2 KiB piece kept from a 1 MB body held the megabyte. Every bounded piece the SDK or the mock keeps of what it
 * received (an error's `rawBody`, a logged body) is made here. The copy goes through JSON: `JSON.parse` builds its
 * strings anew, from a text the length of the piece (lone surrogates survive: `JSON.stringify` escapes them).
 */
export function boundedCopy(text: string, maxChars: number): string {
  let end = Math.min(text.length, Math.max(0, Math.floor(maxChars)));
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return JSON.parse(JSON.stringify(text.slice(0, end))) as string;
}
