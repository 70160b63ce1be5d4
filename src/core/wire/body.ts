/**
 * Reading a user fetch's body, whatever its kind, counted against the limit as it arrives: a web `ReadableStream`
 * (of any realm), a Node stream or other async iterable of bytes (node-fetch 2), a string, or only a `text()`.
 *
 * @module
 */
import { WireFailure } from "./failure.js";

type Chunk = Uint8Array | string;

/**
 * The body as UTF-8 text (bad bytes replaced; a BOM kept: it is dropped once, when the transport reads it). Past
 * `limit` bytes the reading stops and the body is cancelled or destroyed: how fetch is told to drop the connection.
 */
export async function readBodyText(
  body: unknown,
  text: (() => Promise<string>) | undefined,
  limit: number,
): Promise<string> {
  const chunks: Iterable<Chunk> | AsyncIterable<Chunk> =
    typeof body === "string" || body instanceof Uint8Array
      ? [body]
      : typeof (body as ReadableStream | null)?.getReader === "function"
        ? webChunks(body as ReadableStream<Chunk>)
        : typeof (body as AsyncIterable<Chunk> | null)?.[Symbol.asyncIterator] === "function"
          ? (body as AsyncIterable<Chunk>)
          : body == null && text
            ? [await text()]
            : [];
  const encoder = new TextEncoder();
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let out = "";
  let size = 0;
  for await (const chunk of chunks) {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    size += bytes.byteLength;
    // Leaving the loop ends the iteration: a Node stream is destroyed, a web stream cancelled (webChunks).
    if (size > limit) throw new WireFailure("too_large", { limitBytes: limit });
    out += decoder.decode(bytes, { stream: true });
  }
  return out + decoder.decode();
}

/** A web stream's chunks; cancelled when the reading stops early. */
async function* webChunks(body: ReadableStream<Chunk>): AsyncGenerator<Chunk> {
  const reader = body.getReader();
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      yield chunk.value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
