/**
 * The JSON bodies the mock answers with (merchants, settlements, payment status) and the input helpers shared by
 * the operations.
 *
 * @module
 */

import { isTerminalPaymentStatus } from "../../model/payments.js";
import { MockServiceError } from "../store/errors.js";
import { isObject } from "../store/json.js";
import type { MockCryptoSettlement, MockMerchantRecord, MockPaymentRecord } from "../store/types.js";

/** A 400 `invalid_request` naming the field (dotted, as the SDK names it: `settlements.0.asset`). */
export function bad(message: string, field?: string): MockServiceError {
  return new MockServiceError(400, "invalid_request", message, field ? { field } : undefined);
}

/** A required non-empty string: the SDK's rule for names and reference ids (the body size bounds the length). */
export function requireString(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (v === undefined || v === null) throw bad(`${field} is required.`, field);
  if (typeof v !== "string") throw bad(`${field} must be a string.`, field);
  if (v.trim() === "") throw bad(`${field} must not be empty.`, field);
  return v;
}

/** The body as a JSON object (400 when absent or not an object). */
export function requireObjectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) throw bad("A JSON object body is required.");
  if (!isObject(body)) throw bad("The body must be a JSON object.");
  return body;
}

/** Redacts an API key for the request log: `mock_test_***`, `mock_***` or `***`. */
export function redactKey(key: string, prefix: string): string {
  if (key.startsWith(`${prefix}_test_`)) return `${prefix}_test_***`;
  if (key.startsWith(`${prefix}_`)) return `${prefix}_***`;
  return "***";
}

/** A merchant as the service answers it. */
export function merchantBody(m: MockMerchantRecord): Record<string, unknown> {
  return {
    id: m.id,
    name: m.name,
    email: m.email,
    status: m.status,
    iconUrl: m.iconUrl,
    createdAt: new Date(m.createdAt).toISOString(),
    settlements: settlementsBody(m),
  };
}

/** The settlements of a merchant as the service answers them. */
export function settlementsBody(m: MockMerchantRecord): { crypto: MockCryptoSettlement[]; fiat: unknown[] } {
  return {
    crypto: m.settlements.crypto.map((c) => ({ ...c })),
    fiat: m.settlements.fiat.map((f) => ({ ...f })),
  };
}

/** The status result of a payment (`isFinal` ⇔ final status; `pollInMs` null when final). */
export function statusBody(p: MockPaymentRecord, pollInMs: number): Record<string, unknown> {
  const isFinal = isTerminalPaymentStatus(p.status);
  const out: Record<string, unknown> = { status: p.status, isFinal, pollInMs: isFinal ? null : pollInMs };
  if (p.status === "succeeded" && p.info)
    out.info = { txId: p.info.txId, optionAmount: { ...p.info.optionAmount } };
  return out;
}

/** The portal URL of a payment. */
export function portalUrl(baseUrl: string, paymentId: string): string {
  return `${baseUrl}/portal/${encodeURIComponent(paymentId)}`;
}
