/**
 * the two reading modes. Strict: every deviation from the interface document fails. Tolerant: what
 * arrived is returned, each deviation reported once per field as drift; nothing is invented, the structure must hold,
 * and a contradictory status answer is returned as it arrived (never "fixed", never fulfillable).
 */
import { describe, expect, it } from "vitest";
import {
  type Drift,
  isFulfillable,
  type Merchant,
  type PaymentStatusResult,
  paymentStatusResultSchema,
  readResponse,
  retrieveMerchantResponseSchema,
  settlementsListSchema,
} from "../../src/schemas/index.js";

const succeededWithHint = {
  status: "succeeded",
  isFinal: true,
  pollInMs: 2000,
  info: { txId: "test:pay_1", optionAmount: { unit: "caip19/eip155:8453/erc20:0xabc", value: "1050000" } },
};

const merchantWithItemWithoutId = {
  merchant: {
    id: "mrch_1",
    name: "Acme",
    email: "billing@acme.example",
    status: "active",
    iconUrl: null,
    createdAt: "2026-02-19T10:00:00.000Z",
    settlements: {
      crypto: [
        { id: "crypto_1", asset: "eip155:1/slip44:60", destination: "eip155:1:0xab" },
        { asset: "eip155:8453/slip44:60", destination: "eip155:8453:0xab" },
      ],
      fiat: [],
    },
  },
};

function tolerant<T>(reading: ReturnType<typeof readResponse>): { data: T; drift: readonly Drift[] } {
  if (!reading.success) throw new Error(`expected a tolerant success: ${JSON.stringify(reading.issues)}`);
  return reading as { data: T; drift: readonly Drift[] };
}

describe("a succeeded status whose pollInMs still holds a hint (measured)", () => {
  it("strict: fails on pollInMs", () => {
    expect(readResponse(paymentStatusResultSchema, succeededWithHint, "strict")).toEqual({
      success: false,
      issues: [{ path: "pollInMs", message: "must be null when isFinal is true" }],
    });
  });

  it("tolerant: the success is returned as it arrived, with drift at pollInMs, and it is fulfillable", () => {
    const { data, drift } = tolerant<PaymentStatusResult>(
      readResponse(paymentStatusResultSchema, succeededWithHint, "tolerant"),
    );
    expect(data).toEqual(succeededWithHint);
    expect(drift).toEqual([{ path: "pollInMs", expected: "null when isFinal is true", received: "2000" }]);
    expect(isFulfillable(data)).toBe(true);
  });
});

describe("a settlement item without its id (measured)", () => {
  it("strict: fails at that item's id only", () => {
    const reading = readResponse(retrieveMerchantResponseSchema, merchantWithItemWithoutId, "strict");
    expect(reading).toEqual({
      success: false,
      issues: [{ path: "merchant.settlements.crypto.1.id", message: "is required" }],
    });
  });

  it("tolerant: only that item drifts; the merchant's name, status and other items are typed and usable", () => {
    const { data, drift } = tolerant<{ merchant: Merchant }>(
      readResponse(retrieveMerchantResponseSchema, merchantWithItemWithoutId, "tolerant"),
    );
    expect(drift).toEqual([
      { path: "merchant.settlements.crypto.1.id", expected: "a string", received: "missing" },
    ]);
    expect(data.merchant.name).toBe("Acme");
    expect(data.merchant.status).toBe("active");
    expect(data.merchant.settlements.crypto[0]?.id).toBe("crypto_1");
    // Nothing invented: the missing id stays missing (no "" or placeholder).
    expect("id" in (data.merchant.settlements.crypto[1] ?? {})).toBe(false);
  });
});

const NOT_TERMINAL = "false when status is not a documented terminal one";

describe("contradictory status answers (money rules never relax)", () => {
  it.each([
    [{ status: "succeeded", isFinal: false, pollInMs: 1000 }, "isFinal", "true when status is terminal"],
    [{ status: "processing", isFinal: true, pollInMs: null }, "isFinal", NOT_TERMINAL],
    [{ status: "on_hold", isFinal: true, pollInMs: null }, "isFinal", NOT_TERMINAL],
  ])("%j is returned as it arrived, drifts at %s, and is never fulfillable", (body, path, expected) => {
    expect(readResponse(paymentStatusResultSchema, body, "strict").success).toBe(false);
    const { data, drift } = tolerant<PaymentStatusResult>(
      readResponse(paymentStatusResultSchema, body, "tolerant"),
    );
    expect(data).toEqual(body);
    expect(drift).toContainEqual({ path, expected, received: String(body.isFinal) });
    // Drift never quotes what arrived, not even a status (issue 21: `expected` quoted the received status).
    const atIsFinal = drift.filter((entry) => entry.path === "isFinal");
    expect(JSON.stringify(atIsFinal)).not.toContain(body.status);
    expect(isFulfillable(data)).toBe(false);
  });

  it("a succeeded answer whose isFinal arrived as a string is not fulfillable", () => {
    const body = { ...succeededWithHint, pollInMs: null, isFinal: "true" };
    const { data, drift } = tolerant<PaymentStatusResult>(
      readResponse(paymentStatusResultSchema, body, "tolerant"),
    );
    expect(data.isFinal).toBe("true");
    expect(drift).toEqual([{ path: "isFinal", expected: "a boolean", received: "a string (4 characters)" }]);
    expect(isFulfillable(data)).toBe(false);
  });

  it("a succeeded answer without its proof drifts at info but is not altered", () => {
    const body = { status: "succeeded", isFinal: true, pollInMs: null };
    const { data, drift } = tolerant<PaymentStatusResult>(
      readResponse(paymentStatusResultSchema, body, "tolerant"),
    );
    expect(data).toEqual(body);
    expect(drift.map((entry) => entry.path)).toEqual(["info.txId", "info.optionAmount"]);
  });
});

describe("tolerant reading keeps the structure", () => {
  it.each([
    ["the body is not an object", "<html>", ""],
    ["the body is null", null, ""],
    ["merchant is a string", { merchant: "mrch_1" }, "merchant"],
    [
      "settlements is null",
      { merchant: { ...merchantWithItemWithoutId.merchant, settlements: null } },
      "merchant.settlements",
    ],
    [
      "a crypto item is null",
      { merchant: { ...merchantWithItemWithoutId.merchant, settlements: { crypto: [null], fiat: [] } } },
      "merchant.settlements.crypto.0",
    ],
  ])("fails when %s (code walking into it would throw)", (_case, body, path) => {
    const reading = readResponse(retrieveMerchantResponseSchema, body, "tolerant");
    expect(reading.success).toBe(false);
    if (!reading.success) expect(reading.issues.map((issue) => issue.path)).toContain(path);
  });

  it("an array where the document shows one must arrive as an array", () => {
    expect(readResponse(settlementsListSchema, { crypto: {}, fiat: [] }, "tolerant").success).toBe(false);
  });
});

describe("drift never carries a secret", () => {
  it("describes a string by its length, never by its content, and caps numbers", () => {
    const secret = "mp_test_0123456789abcdef0123456789abcdef";
    const body = { status: "processing", isFinal: secret, pollInMs: 1e300, info: null };
    const { drift } = tolerant<PaymentStatusResult>(
      readResponse(paymentStatusResultSchema, body, "tolerant"),
    );
    expect(JSON.stringify(drift)).not.toContain("0123456789");
    expect(drift).toContainEqual({
      path: "isFinal",
      expected: "a boolean",
      received: `a string (${secret.length} characters)`,
    });
    for (const entry of drift) expect(entry.received.length).toBeLessThanOrEqual(40);
  });
});

describe("strict mode", () => {
  it("never reports drift: a valid body reads with none, any deviation fails", () => {
    const valid = { ...succeededWithHint, pollInMs: null };
    expect(readResponse(paymentStatusResultSchema, valid, "strict")).toEqual({
      success: true,
      data: valid,
      drift: [],
    });
    expect(readResponse(paymentStatusResultSchema, valid, "tolerant")).toEqual({
      success: true,
      data: valid,
      drift: [],
    });
  });
});
