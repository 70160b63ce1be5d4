import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isFinalPaymentStatus,
  isFulfillable,
  PAYMENT_STATUSES,
  TERMINAL_PAYMENT_STATUSES,
} from "../../src/index.js";

/** What a tolerant reading may hand over: any status text, and `isFinal` of any JSON kind. */
const anyStatus = fc.oneof(
  fc.constantFrom(...PAYMENT_STATUSES, "SUCCEEDED", "ѕucceeded", "refunded"),
  fc.string(),
);
const anyIsFinal = fc.oneof(
  fc.boolean(),
  fc.constantFrom("true", "false", 1, 0, "yes", null),
  fc.jsonValue(),
);

describe("isFinalPaymentStatus: the one 'is this payment final' rule", () => {
  it("is true exactly for isFinal === true about a documented terminal status", () => {
    fc.assert(
      fc.property(anyStatus, anyIsFinal, (status, isFinal) => {
        const result = { status, isFinal } as Parameters<typeof isFinalPaymentStatus>[0];
        const expected =
          isFinal === true && (TERMINAL_PAYMENT_STATUSES as readonly string[]).includes(status);
        expect(isFinalPaymentStatus(result)).toBe(expected);
      }),
    );
  });

  it("holds every fulfillable answer final, and never the contradictory ones", () => {
    fc.assert(
      fc.property(anyStatus, anyIsFinal, (status, isFinal) => {
        const result = { status, isFinal } as Parameters<typeof isFulfillable>[0];
        if (isFulfillable(result)) expect(isFinalPaymentStatus(result)).toBe(true);
      }),
    );
    for (const isFinal of ["true", 1, "yes"]) {
      const result = { status: "failed", isFinal } as unknown as Parameters<typeof isFulfillable>[0];
      expect(isFinalPaymentStatus(result)).toBe(false);
    }
    expect(isFinalPaymentStatus({ status: "processing", isFinal: true })).toBe(false);
  });
});
