/**
 * The work of drift detection is bounded, not only the events it emits (issue 25, item 10): a 300,000-item answer
 * that deviates everywhere cost 1.2 s of CPU and 176 MB of heap to describe in one drift entry. Counted here as the
 * items whose fields the reading looks at (getters that count their reads), never as time.
 */
import { describe, expect, it } from "vitest";
import { listMerchantsResponseSchema } from "../../src/schemas/merchants.js";
import { readResponse } from "../../src/schemas/parse.js";
import { MAX_DRIFT_ITEMS } from "../../src/schemas/response-array.js";
import { settlementsListSchema } from "../../src/schemas/settlements.js";

const CRYPTO = { asset: "eip155:8453/erc20:0xabc", destination: "eip155:8453:0xdef" };
const ITEMS = 300_000;

/** `count` settlement items whose `destination` (a number: drift) counts its reads in `reads.count`. */
function countedItems(count: number, reads: { count: number }) {
  return Array.from({ length: count }, (_, i) => {
    const item = { id: `crypto_${i}`, asset: CRYPTO.asset };
    Object.defineProperty(item, "destination", {
      enumerable: true,
      get: () => {
        reads.count++;
        return i;
      },
    });
    return item;
  });
}

describe("drift detection examines a bounded number of items", () => {
  it.each(["tolerant", "strict"] as const)(
    "%s: 300,000 deviating items are examined %i at most, the rest counted",
    (mode) => {
      const reads = { count: 0 };
      const body = { fiat: [], crypto: countedItems(ITEMS, reads) };
      const reading = readResponse(settlementsListSchema, body, mode);
      // Each examined item is read a few times (parse, then describing the drift); 300,000 were before.
      expect(reads.count).toBeLessThanOrEqual(4 * MAX_DRIFT_ITEMS);
      const entries = reading.success
        ? reading.drift.map((d) => `${d.path}: ${d.received}`)
        : reading.issues.map((i) => `${i.path}: ${i.message}`);
      expect(entries).toHaveLength(2);
      expect(entries[1]).toMatch(new RegExp(`^crypto\\.\\*: ${ITEMS - MAX_DRIFT_ITEMS} more items`));
      expect(reading.success).toBe(mode === "tolerant");
    },
    60_000,
  );

  it("past the budget, what fails a reading in every mode is still checked: a later item without a string id", () => {
    const data = Array.from({ length: 5_000 }, (_, i) => ({ id: `mrch_${i}`, name: 1 }));
    data[4_321] = { name: "no id" } as unknown as (typeof data)[number];
    const reading = readResponse(listMerchantsResponseSchema, { data }, "tolerant");
    expect(reading.success).toBe(false);
    expect(!reading.success && reading.issues.map((i) => i.path)).toContain("data.4321.id");
  });

  it("past the budget, an item that is not an object still fails the reading", () => {
    const crypto: unknown[] = Array.from({ length: 5_000 }, (_, i) => ({
      id: `c_${i}`,
      ...CRYPTO,
      destination: 1,
    }));
    crypto[4_999] = "not an object";
    const reading = readResponse(settlementsListSchema, { fiat: [], crypto }, "tolerant");
    expect(reading.success).toBe(false);
  });
});
