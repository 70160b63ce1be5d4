/**
 * The HTTP control endpoints of the mock, under the control prefix (default `/__mock`). They need no
 * credentials (the mock is a local test tool), but every request that changes state must carry
 * `Content-Type: application/json` (415 otherwise): a web page can send a cross-site `text/plain` POST
 * without asking, never a JSON one. Answers are JSON; errors use `{ message, code, details? }`.
 *
 * | Method | Path | Body | Answer |
 * |---|---|---|---|
 * | GET | `/__mock` | | `{ baseUrl, controlPrefix, versionHeader, keys, merchantId, liveMerchantId, accounts }` |
 * | GET | `/__mock/state` | | state snapshot |
 * | GET / DELETE | `/__mock/requests` | | `{ data: [...] }` / empties the log |
 * | GET | `/__mock/merchants`, `/__mock/payments` | | `{ data: [...] }` |
 * | GET | `/__mock/payments/{id}` | | payment record |
 * | GET | `/__mock/payments/{id}/options` | | `{ data: [option] }` |
 * | POST | `/__mock/payments/{id}/complete` | `{ optionId? }` | payment record |
 * | POST | `/__mock/payments/{id}/fail`, `/expire`, `/processing`, `/cancel` | | payment record |
 * | POST | `/__mock/payments/{id}/simulate` | `{ outcome, optionId?, buyerAddress? }` | `{ status, redirectUrl }` |
 * | POST | `/__mock/time/advance` | `{ ms }` | `{ now }` |
 * | POST | `/__mock/faults` | fault spec (`path`: exact, `*` for any run of characters) | `{ id }` |
 * | GET / DELETE | `/__mock/faults` | | `{ data }` / clears |
 * | DELETE | `/__mock/faults/{id}` | | `{ removed }` |
 * | POST | `/__mock/accounts` | seed account | account |
 * | POST | `/__mock/reset` | | `{ ok: true }` |
 *
 * @module
 */

import type { MockControls } from "./controls.js";
import type { FaultRegistry, MockFaultSpec } from "./faults.js";
import { json, type RawRequest, type RawResponse, readJsonBody } from "./http.js";
import type { Route } from "./routes.js";
import { MockServiceError } from "./store/errors.js";
import { isObject } from "./store/json.js";
import type { MockSeedAccount } from "./store/seed.js";

/** What a control route's handler receives. */
export interface ControlContext {
  /** The controls driven. */
  service: MockControls;
  /** Its fault registry. */
  faults: FaultRegistry;
  /** The request. */
  req: RawRequest;
  /** Decoded path parameters. */
  params: Record<string, string>;
  /** The JSON object body (`{}` when empty). */
  body: Record<string, unknown>;
}

/** A control route. */
export interface ControlRoute extends Route<ControlContext> {
  /** Answers the request. */
  readonly handle: (context: ControlContext) => RawResponse;
}

const CONTROL_BODY = {
  suffixJson: false,
  typeEvenWhenEmpty: true,
  unsupported: "Control requests that change state need Content-Type: application/json.",
};

/** The JSON object body of a control request (`{}` when empty or a GET). */
export function controlBody(req: RawRequest): Record<string, unknown> {
  const parsed = readJsonBody(req, CONTROL_BODY);
  if (parsed === undefined) return {};
  if (!isObject(parsed))
    throw new MockServiceError(400, "invalid_request", "The body must be a JSON object.");
  return parsed;
}

const invalid = (err: unknown): MockServiceError =>
  err instanceof MockServiceError
    ? err
    : new MockServiceError(400, "invalid_request", err instanceof Error ? err.message : String(err));

const id = (c: ControlContext): string => c.params.paymentId!;
const drive =
  (method: "failPayment" | "expirePayment" | "markProcessing" | "cancelPayment") =>
  (c: ControlContext): RawResponse =>
    json(200, c.service[method](id(c)));

function info({ service }: ControlContext): RawResponse {
  return json(200, {
    baseUrl: service.baseUrl,
    controlPrefix: service.controlPrefix,
    versionHeader: service.versionHeader,
    keys: service.keys,
    merchantId: service.merchantId,
    liveMerchantId: service.liveMerchantId,
    accounts: service.accounts,
  });
}

function complete(c: ControlContext): RawResponse {
  const optionId = typeof c.body.optionId === "string" ? c.body.optionId : undefined;
  return json(200, c.service.completePayment(id(c), optionId ? { optionId } : {}));
}

function simulate(c: ControlContext): RawResponse {
  const { outcome, optionId, buyerAddress } = c.body;
  if (outcome !== "success" && outcome !== "failure") {
    throw new MockServiceError(400, "invalid_request", 'outcome must be "success" or "failure".', {
      field: "outcome",
    });
  }
  const redirectUrl = c.service.simulateBuyer(id(c), {
    outcome,
    ...(typeof optionId === "string" ? { optionId } : {}),
    ...(typeof buyerAddress === "string" ? { buyerAddress } : {}),
  });
  return json(200, { status: c.service.getPayment(id(c)).status, redirectUrl });
}

function advanceTime(c: ControlContext): RawResponse {
  if (typeof c.body.ms !== "number") {
    throw new MockServiceError(400, "invalid_request", "ms must be a number.", { field: "ms" });
  }
  c.service.advanceTime(c.body.ms);
  return json(200, { now: c.service.now().toISOString() });
}

function addFault(c: ControlContext): RawResponse {
  try {
    const handle = c.faults.add(c.body as unknown as MockFaultSpec);
    return json(201, { id: handle.id, remaining: handle.remaining });
  } catch (err) {
    throw invalid(err);
  }
}

function addAccount(c: ControlContext): RawResponse {
  try {
    return json(201, c.service.createAccount(c.body as MockSeedAccount));
  } catch (err) {
    throw invalid(err);
  }
}

const ok = (run: (c: ControlContext) => void) => (c: ControlContext) => {
  run(c);
  return json(200, { ok: true });
};

/** Every control route, relative to the control prefix. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  { method: "GET", path: "/", handle: info },
  { method: "GET", path: "/state", handle: (c) => json(200, c.service.state) },
  { method: "GET", path: "/requests", handle: (c) => json(200, { data: c.service.requests }) },
  { method: "DELETE", path: "/requests", handle: ok((c) => c.service.clearRequests()) },
  { method: "GET", path: "/merchants", handle: (c) => json(200, { data: c.service.merchants }) },
  { method: "GET", path: "/payments", handle: (c) => json(200, { data: c.service.payments }) },
  { method: "GET", path: "/payments/:paymentId", handle: (c) => json(200, c.service.getPayment(id(c))) },
  {
    method: "GET",
    path: "/payments/:paymentId/options",
    handle: (c) => json(200, { data: c.service.paymentOptions(id(c)) }),
  },
  { method: "POST", path: "/payments/:paymentId/complete", handle: complete },
  { method: "POST", path: "/payments/:paymentId/fail", handle: drive("failPayment") },
  { method: "POST", path: "/payments/:paymentId/expire", handle: drive("expirePayment") },
  { method: "POST", path: "/payments/:paymentId/processing", handle: drive("markProcessing") },
  { method: "POST", path: "/payments/:paymentId/cancel", handle: drive("cancelPayment") },
  { method: "POST", path: "/payments/:paymentId/simulate", handle: simulate },
  { method: "POST", path: "/time/advance", handle: advanceTime },
  { method: "GET", path: "/faults", handle: (c) => json(200, { data: c.faults.list() }) },
  { method: "POST", path: "/faults", handle: addFault },
  { method: "DELETE", path: "/faults", handle: ok((c) => c.faults.clear()) },
  {
    method: "DELETE",
    path: "/faults/:faultId",
    handle: (c) => json(200, { removed: c.faults.remove(c.params.faultId!) }),
  },
  { method: "POST", path: "/accounts", handle: addAccount },
  { method: "POST", path: "/reset", handle: ok((c) => c.service.reset()) },
];
