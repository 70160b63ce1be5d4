/**
 * Reading JSON the server sent (an answer's body, or JSON carried in one, as a wallet call's typed data is), within
 * a nesting bound: a body nested 10⁵ deep parses, but the app's later `JSON.stringify` of a value or an error holding
 * it throws `RangeError`. Deeper than {@link MAX_JSON_DEPTH} is refused before it is parsed.
 *
 * @module
 */
import { MAX_JSON_DEPTH } from "../errors.js";

/** The outcome of {@link parseJson}. */
export type JsonReading =
  | { kind: "json"; value: unknown }
  | { kind: "empty" }
  | { kind: "not_json" }
  | { kind: "too_deep" };

/** Parses a body: `empty` for no text, `too_deep` past {@link MAX_JSON_DEPTH}, `not_json` when it does not parse. */
export function parseJson(text: string): JsonReading {
  if (text === "") return { kind: "empty" };
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return { kind: "too_deep" };
  try {
    return { kind: "json", value: JSON.parse(text) };
  } catch {
    return { kind: "not_json" };
  }
}

/** True when brackets outside strings open more than `limit` levels. One pass, no allocation. */
function nestsDeeperThan(text: string, limit: number): boolean {
  if (text.length <= limit || opensAtMost(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      if (++depth > limit) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * True when `text` holds at most `limit` opening brackets (in strings or not), so it cannot nest deeper: found with
 * native `indexOf`, about 15 times cheaper than the character loop on a typical answer (a few brackets).
 */
function opensAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ["{", "["]) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) {
      if (++count > limit) return false;
    }
  }
  return true;
}
