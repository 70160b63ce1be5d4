/**
 * The HTTP control endpoints of the mock, under the control prefix (default `/__mock`). They need no
 * credentials (the mock is a local test tool). Answers are JSON; errors use `{ message, code, details? }`.
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
 * | POST | `/__mock/faults` | fault spec (`path` string, or `pathRegex`) | `{ id }` |
 * | GET / DELETE | `/__mock/faults` | | `{ data }` / clears |
 * | DELETE | `/__mock/faults/{id}` | | `{ removed }` |
 * | POST | `/__mock/accounts` | seed account | account |
 * | POST | `/__mock/reset` | | `{ ok: true }` |
 *
 * @module
 */

import type { FaultRegistry, MockFaultSpec } from "./faults.js";
import { errorResponse, json, type RawRequest, type RawResponse } from "./http.js";
import { MockServiceError } from "./model/errors.js";
import { isObject } from "./model/json.js";
import type { MockSeedAccount } from "./model/seed.js";
import type { MockService } from "./service.js";

/** Inputs of {@link controlRoute}. */
export interface ControlContext {
  /** The service driven. */
  service: MockService;
  /** Its fault registry. */
  faults: FaultRegistry;
  /** The request. */
  req: RawRequest;
  /** Path below the control prefix, starting with `/`. */
  path: string;
}

function body(req: RawRequest): Record<string, unknown> {
  if (req.body === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(req.body);
  } catch {
    throw new MockServiceError(400, "invalid_json", "The request body is not valid JSON.");
  }
  if (!isObject(parsed))
    throw new MockServiceError(400, "invalid_request", "The body must be a JSON object.");
  return parsed;
}

/** Answers one control request. */
export function controlRoute({ service, faults, req, path }: ControlContext): RawResponse {
  try {
    const seg = path
      .split("/")
      .filter((s) => s !== "")
      .map((s) => decodeURIComponent(s));
    const m = req.method;
    const [a, b, c] = seg;
    if (seg.length === 0 && m === "GET") {
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
    if (a === "state" && seg.length === 1 && m === "GET") return json(200, service.state);
    if (a === "requests" && seg.length === 1) {
      if (m === "GET") return json(200, { data: service.requests });
      if (m === "DELETE") {
        service.clearRequests();
        return json(200, { ok: true });
      }
    }
    if (a === "merchants" && seg.length === 1 && m === "GET") return json(200, { data: service.merchants });
    if (a === "payments") {
      if (seg.length === 1 && m === "GET") return json(200, { data: service.payments });
      if (b !== undefined && seg.length === 2 && m === "GET") return json(200, service.getPayment(b));
      if (b !== undefined && seg.length === 3) {
        if (c === "options" && m === "GET") return json(200, { data: service.paymentOptions(b) });
        if (m === "POST") {
          const input = body(req);
          switch (c) {
            case "complete": {
              const optionId = typeof input.optionId === "string" ? input.optionId : undefined;
              return json(200, service.completePayment(b, optionId ? { optionId } : {}));
            }
            case "fail":
              return json(200, service.failPayment(b));
            case "expire":
              return json(200, service.expirePayment(b));
            case "processing":
              return json(200, service.markProcessing(b));
            case "cancel":
              return json(200, service.cancelPayment(b));
            case "simulate": {
              const outcome = input.outcome;
              if (outcome !== "success" && outcome !== "failure") {
                throw new MockServiceError(
                  400,
                  "invalid_request",
                  'outcome must be "success" or "failure".',
                  {
                    field: "outcome",
                  },
                );
              }
              const redirectUrl = service.simulateBuyer(b, {
                outcome,
                ...(typeof input.optionId === "string" ? { optionId: input.optionId } : {}),
                ...(typeof input.buyerAddress === "string" ? { buyerAddress: input.buyerAddress } : {}),
              });
              return json(200, { status: service.getPayment(b).status, redirectUrl });
            }
          }
        }
      }
    }
    if (a === "time" && b === "advance" && seg.length === 2 && m === "POST") {
      const ms = body(req).ms;
      if (typeof ms !== "number") throw new MockServiceError(400, "invalid_request", "ms must be a number.");
      service.advanceTime(ms);
      return json(200, { now: service.now().toISOString() });
    }
    if (a === "faults") {
      if (seg.length === 1 && m === "GET") return json(200, { data: faults.list() });
      if (seg.length === 1 && m === "DELETE") {
        faults.clear();
        return json(200, { ok: true });
      }
      if (seg.length === 1 && m === "POST") {
        const input = body(req);
        const spec = { ...input } as unknown as MockFaultSpec & { pathRegex?: unknown };
        if (typeof input.pathRegex === "string") spec.path = new RegExp(input.pathRegex);
        delete spec.pathRegex;
        try {
          const handle = faults.add(spec);
          return json(201, { id: handle.id, remaining: handle.remaining });
        } catch (err) {
          throw new MockServiceError(
            400,
            "invalid_request",
            err instanceof Error ? err.message : String(err),
          );
        }
      }
      if (b !== undefined && seg.length === 2 && m === "DELETE")
        return json(200, { removed: faults.remove(b) });
    }
    if (a === "accounts" && seg.length === 1 && m === "POST") {
      try {
        return json(201, service.createAccount(body(req) as MockSeedAccount));
      } catch (err) {
        if (err instanceof MockServiceError) throw err;
        throw new MockServiceError(400, "invalid_request", err instanceof Error ? err.message : String(err));
      }
    }
    if (a === "reset" && seg.length === 1 && m === "POST") {
      service.reset();
      return json(200, { ok: true });
    }
    throw new MockServiceError(404, "not_found", `No control endpoint ${m} ${path}.`);
  } catch (err) {
    if (err instanceof MockServiceError) return errorResponse(err);
    return errorResponse(
      new MockServiceError(500, "internal_error", err instanceof Error ? err.message : String(err)),
    );
  }
}
