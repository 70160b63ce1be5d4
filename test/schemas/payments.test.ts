import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CreatePaymentInput,
  cancellationResultSchema,
  isTerminalPaymentStatus,
  PAYMENT_STATUSES,
  paymentStatusResultSchema,
  readResponse,
  TERMINAL_PAYMENT_STATUSES,
  toCreatePaymentBody,
  unknownField,
} from "../../src/schemas/index.js";
import { ISO4217_CURRENCY_CODES } from "../../src/money.js";
import { inputError } from "../helpers/assertions.js";

describe("payment create input", () => {
  it("maps to { referenceId, amount }", () => {
    expect(
      toCreatePaymentBody({ referenceId: "order-1", amount: { unit: "iso4217/USD", value: "1050" } }),
    ).toEqual({
      referenceId: "order-1",
      amount: { unit: "iso4217/USD", value: "1050" },
    });
  });

  it.each([
    [{ amount: { unit: "iso4217/USD", value: "1" } }, "referenceId"],
    [{ referenceId: "", amount: { unit: "iso4217/USD", value: "1" } }, "referenceId"],
    [{ referenceId: " ", amount: { unit: "iso4217/USD", value: "1" } }, "referenceId"],
    [{ referenceId: 7, amount: { unit: "iso4217/USD", value: "1" } }, "referenceId"],
    [{ referenceId: "o" }, "amount"],
    [{ referenceId: "o", amount: { unit: "iso4217/USD", value: "10.50" } }, "amount.value"],
    [{ referenceId: "o", amount: { unit: "iso4217/USD", value: 1050 } }, "amount.value"],
    [{ referenceId: "o", amount: { unit: "iso4217/USD", value: "-5" } }, "amount.value"],
    [{ referenceId: "o", amount: { unit: "caip19/eip155:1/erc20:0xabc", value: "1" } }, "amount.unit"],
    [{ referenceId: "o", amount: { unit: "USD", value: "1" } }, "amount.unit"],
    [{ referenceId: "o", amount: { unit: "iso4217/USD", value: "1" }, checkout: {} }, "checkout"],
  ])("rejects %j on %s", (input, field) => {
    const error = inputError(() => toCreatePaymentBody(input as unknown as CreatePaymentInput));
    expect(error.field).toBe(field);
    expect(error.issues[0]?.message.startsWith(field)).toBe(true);
  });

  it("refuses a number amount at compile time too", () => {
    // @ts-expect-error value must be a string of minor units
    const input: CreatePaymentInput = { referenceId: "o", amount: { unit: "iso4217/USD", value: 1050 } };
    expect(inputError(() => toCreatePaymentBody(input)).field).toBe("amount.value");
  });

  it("round-trips every accepted amount (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s.trim().length > 0),
        fc.constantFrom(...ISO4217_CURRENCY_CODES),
        fc.bigInt({ min: 1n, max: 10n ** 30n - 1n }), // more than nothing, at most 30 digits (validate/rules.ts)
        (referenceId, code, n) => {
          const amount = { unit: `iso4217/${code}`, value: n.toString() };
          expect(toCreatePaymentBody({ referenceId, amount })).toEqual({ referenceId, amount });
        },
      ),
    );
  });
});

const succeeded = {
  status: "succeeded",
  isFinal: true,
  pollInMs: null,
  info: { txId: "test:pay_1", optionAmount: { unit: "caip19/eip155:1/erc20:0xabc", value: "1050000" } },
};

describe("payment status result", () => {
  it("parses every documented status with a consistent isFinal", () => {
    for (const status of PAYMENT_STATUSES) {
      const isFinal = isTerminalPaymentStatus(status);
      const body = status === "succeeded" ? succeeded : { status, isFinal, pollInMs: isFinal ? null : 2000 };
      expect(readResponse(paymentStatusResultSchema, body, "strict").success, status).toBe(true);
    }
  });

  it("keeps extra fields, in the result and in info", () => {
    const result = readResponse(
      paymentStatusResultSchema,
      {
        ...succeeded,
        source: "push",
        info: { ...succeeded.info, block: 12 },
      },
      "strict",
    );
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(unknownField(result.data, "source")).toBe("push");
    expect(result.data.info && unknownField(result.data.info, "block")).toBe(12);
    expect(result.data.info?.optionAmount?.value).toBe("1050000");
  });

  it("parses an unknown status that is not final, and it is not terminal", () => {
    const result = readResponse(
      paymentStatusResultSchema,
      {
        status: "on_hold",
        isFinal: false,
        pollInMs: 5000,
      },
      "strict",
    );
    expect(result.success).toBe(true);
    expect(result.success && result.data.status).toBe("on_hold");
    expect(isTerminalPaymentStatus("on_hold")).toBe(false);
  });

  it("refuses an unknown status that claims to be final", () => {
    const result = readResponse(
      paymentStatusResultSchema,
      {
        status: "refunded",
        isFinal: true,
        pollInMs: null,
      },
      "strict",
    );
    expect(result.success).toBe(false);
    if (!result.success) expect(result.issues[0]?.path).toBe("isFinal");
  });

  it.each([
    [{ status: "processing", isFinal: true, pollInMs: null }, "isFinal"],
    [{ status: "failed", isFinal: false, pollInMs: 1000 }, "isFinal"],
    [{ status: "expired", isFinal: true, pollInMs: 1000 }, "pollInMs"],
    [{ status: "processing", isFinal: false, pollInMs: -1 }, "pollInMs"],
    [{ status: "processing", isFinal: false, pollInMs: 1.5 }, "pollInMs"],
    [{ status: "processing", isFinal: "false", pollInMs: 1 }, "isFinal"],
    [{ ...succeeded, info: undefined }, "info.txId"],
    [{ ...succeeded, info: { txId: "0x1" } }, "info.optionAmount"],
    [
      { ...succeeded, info: { ...succeeded.info, optionAmount: { unit: "iso4217/USD", value: "1" } } },
      "info.optionAmount.unit",
    ],
  ])("refuses %j (issue on %s)", (body, path) => {
    const result = readResponse(paymentStatusResultSchema, body, "strict");
    expect(result.success).toBe(false);
    if (!result.success) expect(result.issues.map((issue) => issue.path)).toContain(path);
  });

  it("tolerates an absent pollInMs and a null info", () => {
    expect(
      readResponse(paymentStatusResultSchema, { status: "processing", isFinal: false }, "strict").success,
    ).toBe(true);
    expect(
      readResponse(paymentStatusResultSchema, { status: "cancelled", isFinal: true, info: null }, "strict")
        .success,
    ).toBe(true);
  });

  it("never accepts isFinal: true for a status outside the terminal list (property)", () => {
    fc.assert(
      fc.property(fc.string(), fc.boolean(), (status, isFinal) => {
        const result = readResponse(paymentStatusResultSchema, { status, isFinal, pollInMs: null }, "strict");
        if (result.success && result.data.isFinal) {
          expect(TERMINAL_PAYMENT_STATUSES as readonly string[]).toContain(result.data.status);
        }
        if (!(TERMINAL_PAYMENT_STATUSES as readonly string[]).includes(status) && isFinal) {
          expect(result.success).toBe(false);
        }
      }),
    );
  });
});

describe("other payment responses", () => {
  it("cancel: parses the result and keeps an unknown reason", () => {
    const body = {
      cancelledAt: "2026-02-19T10:00:00.000Z",
      cancelledReason: "expired_by_ops",
      paymentId: "pay_1",
      status: "cancelled",
    };
    const result = readResponse(cancellationResultSchema, body, "strict");
    expect(result.success && result.data.cancelledReason).toBe("expired_by_ops");
    expect(readResponse(cancellationResultSchema, { ...body, paymentId: undefined }, "strict").success).toBe(
      false,
    );
  });
});
