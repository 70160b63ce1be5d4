/**
 * How tests reach the mock (a `MockTransport`: MSW in process or a loopback server), and a small JSON request helper
 * over plain fetch.
 */

import type { MockService, MockServiceOptions } from "../../src/testing/index.js";

export interface Harness {
  mock: MockService;
  base: string;
}

/** How a contract test reaches the mock: MSW in process, or the loopback server. */
export interface MockTransport {
  name: string;
  setup(options?: MockServiceOptions): Promise<Harness>;
}

export interface CallOptions {
  key?: string | null;
  merchantId?: string;
  body?: unknown;
  rawBody?: string;
  idem?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  // oxlint-disable-next-line typescript/no-explicit-any -- tests read arbitrary JSON
  body: any;
  text: string;
  headers: Headers;
}

export async function call(
  h: Harness,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? h.mock.keys.test : opts.key;
  if (key !== null) headers["Api-Key"] = key;
  if (opts.merchantId) headers["Merchant-Id"] = opts.merchantId;
  if (opts.idem) headers["Idempotency-Key"] = opts.idem;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  // Control requests that change state must say JSON even without a body (a cross-site form cannot).
  const control = path.startsWith("/__mock") && method !== "GET";
  if ((body !== undefined || control) && !headers["Content-Type"])
    headers["Content-Type"] = "application/json";
  const res = await fetch(`${h.base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** Creates a payment through the direct flow and returns its id. */
export async function createPayment(
  h: Harness,
  value = "1000",
  currency = "USD",
  key?: string,
): Promise<string> {
  const r = await call(h, "POST", "/v1/payments", {
    ...(key ? { key } : {}),
    merchantId: key === h.mock.keys.live ? (h.mock.liveMerchantId ?? "") : h.mock.merchantId,
    body: { referenceId: `order-${Math.random()}`, amount: { unit: `iso4217/${currency}`, value } },
  });
  if (r.status !== 201) throw new Error(`payment creation failed: ${r.status} ${r.text}`);
  return r.body.id as string;
}

/** Creates a checkout payment and returns `{ paymentId, gatewayUrl }`. */
export async function createCheckout(
  h: Harness,
  checkout: unknown,
): Promise<{ paymentId: string; gatewayUrl: string }> {
  const r = await call(h, "POST", "/v1/merchant/payment", {
    merchantId: h.mock.merchantId,
    body: { referenceId: "order-1", amount: { unit: "iso4217/USD", value: "1999" }, checkout },
  });
  if (r.status !== 201) throw new Error(`checkout creation failed: ${r.status} ${r.text}`);
  return r.body;
}

export const TEST_ASSET_BASE_SEPOLIA = "eip155:84532/erc20:0x036CbD53842c5426634e7929541eC2318f3dCF7e";
export const ADDR = "0x1234567890123456789012345678901234567890";
