/**
 * Every bounded piece kept of a received body is a copy, not a view into the whole body (issue 25, item 3): measured
 * by the memory (V8 heap and external strings) a separate `node --expose-gc` process still holds after full
 * collections, never by string length.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { boundedCopy } from "../../src/model/text.js";

const CHILD = fileURLToPath(new URL("../helpers/retained-heap-child.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

async function retained(
  scenario: string,
  count: number,
): Promise<{ retainedBytes: number; bodyBytes: number }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--expose-gc", "--import", "tsx", CHILD, scenario, String(count)],
    { cwd: ROOT, timeout: 60_000, maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(stdout) as { retainedBytes: number; bodyBytes: number };
}

describe("bounded copies hold only what they keep", () => {
  it("100 kept APIErrors of 1 MB HTML answers hold their 2 KiB rawBody each, not the bodies", async () => {
    const { retainedBytes, bodyBytes } = await retained("errors", 100);
    // A view into each body kept about 100 MB; the copies are 100 x 2 KiB plus the errors themselves.
    expect(retainedBytes).toBeLessThan(bodyBytes / 10);
  });

  it("the mock's request log keeps 4 KiB of each of 100 unauthenticated 1 MB POSTs, not the bodies", async () => {
    const { retainedBytes, bodyBytes } = await retained("mock-log", 100);
    expect(retainedBytes).toBeLessThan(bodyBytes / 10);
  });

  it("boundedCopy keeps the text's start, whole code points, lone surrogates and all", () => {
    expect(boundedCopy("abcdef", 3)).toBe("abc");
    expect(boundedCopy("ab", 3)).toBe("ab");
    expect(boundedCopy("a😀b", 2)).toBe("a");
    expect(boundedCopy("a\ud800b", 3)).toBe("a\ud800b");
    expect(boundedCopy("abc", 0)).toBe("");
  });
});
