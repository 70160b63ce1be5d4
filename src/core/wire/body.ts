/**
 * Reading a user fetch's body, whatever its kind, counted against the limit as it arrives: a web `ReadableStream`
 * (of any realm), a Node stream or other async iterable of bytes (node-fetch 2), a string, or only a `text()`.
 *
 * @module
 */
import { WireFailure } from "./failure.js";

/** A body as fetch implementations hand it over. */
export type BodyLike = unknown;

type Chunk = Uint8Array | string;

/** The body as UTF-8 text (bad bytes replaced; a BOM kept: it is dropped once, when the policy reads it). */
export async function readBodyText(
  body: BodyLike,
  text: (() => Promise<string>) | undefined,
  limit: number,
): Promise<string> {
  const counter = new Counter(limit);
  if (isWebStream(body)) return counter.readWeb(body);
  if (isAsyncIterable(body)) return counter.readIterable(body);
  if (typeof body === "string") return counter.whole(body);
  if (body instanceof Uint8Array) return counter.whole(body);
  if ((body === null || body === undefined) && text !== undefined) return counter.whole(await text());
  return "";
}

class Counter {
  readonly #limit: number;
  readonly #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  readonly #encoder = new TextEncoder();
  #size = 0;
  #text = "";

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Adds a chunk; false once the limit is passed. */
  add(chunk: Chunk): boolean {
    const bytes = typeof chunk === "string" ? this.#encoder.encode(chunk) : chunk;
    this.#size += bytes.byteLength;
    if (this.#size > this.#limit) return false;
    this.#text += this.#decoder.decode(bytes, { stream: true });
    return true;
  }

  done(): string {
    return this.#text + this.#decoder.decode();
  }

  tooLarge(): WireFailure {
    return new WireFailure("too_large", { limitBytes: this.#limit });
  }

  whole(chunk: Chunk): string {
    if (!this.add(chunk)) throw this.tooLarge();
    return this.done();
  }

  /** Past the limit the reading stops and the body is cancelled: how fetch is told to drop the connection. */
  async readWeb(body: ReadableStream<Chunk>): Promise<string> {
    const reader = body.getReader();
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return this.done();
      if (!this.add(chunk.value)) {
        reader.cancel().catch(() => {});
        throw this.tooLarge();
      }
    }
  }

  /** Past the limit the iteration ends, which destroys a Node stream (and its socket). */
  async readIterable(body: AsyncIterable<Chunk>): Promise<string> {
    for await (const chunk of body) {
      if (!this.add(chunk)) throw this.tooLarge();
    }
    return this.done();
  }
}

function isWebStream(body: unknown): body is ReadableStream<Chunk> {
  return typeof (body as { getReader?: unknown } | null)?.getReader === "function";
}

function isAsyncIterable(body: unknown): body is AsyncIterable<Chunk> {
  return typeof (body as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === "function";
}
