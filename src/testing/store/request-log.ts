/**
 * The request log: what the mock received, bounded by the memory it holds. An entry keeps strings only (the body as
 * text, parsed when read), so its size in memory is known: two bytes per UTF-16 code unit plus a fixed overhead.
 *
 * @module
 */

import type { MockRequestLogEntry } from "./types.js";

/** The longest body kept in an entry; longer ones are cut and marked `bodyTruncated`. */
export const LOGGED_BODY_MAX_CHARS = 4096;

/** What an entry holds before it is read: the body as text. */
export interface StoredLogEntry extends Omit<MockRequestLogEntry, "body"> {
  /** The body text ("" when none), cut to {@link LOGGED_BODY_MAX_CHARS}. */
  bodyText: string;
}

// Per entry, per string: the object, its properties and string headers as V8 lays them out, rounded up.
const ENTRY_OVERHEAD_BYTES = 512;
const STRING_OVERHEAD_BYTES = 32;

function heldBytes(entry: StoredLogEntry): number {
  let bytes = ENTRY_OVERHEAD_BYTES;
  const add = (text: string | null): void => {
    if (text !== null) bytes += STRING_OVERHEAD_BYTES + 2 * text.length;
  };
  for (const text of [entry.requestId, entry.method, entry.path, entry.version, entry.bodyText]) add(text);
  for (const pair of [...Object.entries(entry.headers), ...Object.entries(entry.query)]) {
    add(pair[0]);
    add(pair[1]);
  }
  return bytes;
}

function parsedBody(entry: StoredLogEntry): unknown {
  if (entry.bodyText === "") return null;
  if (entry.bodyTruncated) return entry.bodyText;
  try {
    return JSON.parse(entry.bodyText) as unknown;
  } catch {
    return entry.bodyText;
  }
}

/** The bounded log: oldest entries dropped first once over the count or the bytes. */
export class RequestLog {
  #entries: { entry: StoredLogEntry; bytes: number }[] = [];
  #bytes = 0;

  /** Creates the log with its bounds. */
  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  /** Adds an entry (the newest one is always kept). */
  add(entry: StoredLogEntry): void {
    const bytes = heldBytes(entry);
    this.#entries.push({ entry, bytes });
    this.#bytes += bytes;
    while (
      this.#entries.length > 1 &&
      (this.#entries.length > this.maxEntries || this.#bytes > this.maxBytes)
    ) {
      this.#bytes -= this.#entries.shift()?.bytes ?? 0;
    }
  }

  /** Memory held by the entries (estimated bytes). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Every entry as the public shape (fresh objects: bodies parsed now). */
  list(): MockRequestLogEntry[] {
    return this.#entries.map(({ entry }) => {
      const { bodyText: _, ...rest } = entry;
      return { ...rest, headers: { ...rest.headers }, query: { ...rest.query }, body: parsedBody(entry) };
    });
  }

  /** Empties the log. */
  clear(): void {
    this.#entries = [];
    this.#bytes = 0;
  }
}
