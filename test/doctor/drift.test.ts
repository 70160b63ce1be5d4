/**
 * The doctor's drift classification: a response schema of the operations table read strictly, each zod issue
 * turned into a kind (missing, extra, type, enum) at a field path, in bounded time and memory whatever arrives.
 */
import { describe, expect, it } from "vitest";
import { driftOf } from "../../src/doctor/drift.js";
import { OPERATIONS } from "../../src/operations.js";
import * as schemas from "../../src/schemas/operations.js";
import { MERCHANT } from "../helpers/fixtures.js";

describe("drift of an answer read strictly", () => {
  it("is empty for an answer as documented, and the SDK's own reading is left as it was", () => {
    expect(driftOf(schemas.retrieveMerchantResponseSchema, { merchant: MERCHANT })).toEqual([]);
    // The strict copy is the doctor's: the SDK still keeps an added field and an unknown status.
    const added = { merchant: { ...MERCHANT, tier: "gold", status: "paused" } };
    expect(schemas.readResponse(schemas.retrieveMerchantResponseSchema, added, "strict").success).toBe(true);
  });

  it("names each kind at its field path", () => {
    const { status: _, ...withoutStatus } = MERCHANT;
    const answer = { merchant: { ...withoutStatus, name: 7, tier: "gold" }, extra: true };
    expect(driftOf(schemas.retrieveMerchantResponseSchema, answer)).toEqual(
      expect.arrayContaining([
        { path: "merchant.status", kind: "missing" },
        { path: "merchant.name", kind: "type" },
        { path: "merchant.tier", kind: "extra" },
        { path: "extra", kind: "extra" },
      ]),
    );
    const paused = { merchant: { ...MERCHANT, status: "paused" } };
    expect(driftOf(schemas.retrieveMerchantResponseSchema, paused)).toEqual([
      { path: "merchant.status", kind: "enum" },
    ]);
  });

  it("reports an array's items once per field, and reads 120,000 hostile items without overflowing", () => {
    const crypto = Array.from({ length: 120_000 }, (_, i) => ({ id: i, surplus: 1 }));
    expect(driftOf(schemas.settlementsListSchema, { fiat: [], crypto })).toEqual([
      { path: "crypto.*.id", kind: "type" },
      { path: "crypto.*.asset", kind: "missing" },
      { path: "crypto.*.destination", kind: "missing" },
      { path: "crypto.*.surplus", kind: "extra" },
    ]);
  });

  it("reads every response schema of the operations table", () => {
    const loaded = schemas as unknown as Record<string, Parameters<typeof driftOf>[0]>;
    for (const row of Object.values(OPERATIONS)) {
      expect(() => driftOf(loaded[row.response]!, {})).not.toThrow();
    }
  });
});
