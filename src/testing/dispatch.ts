/**
 * Where a request goes: the control plane (under the control prefix), the pages (portal, favicon), or
 * the `/v1` routes. Each is a table of routes; only a request that reaches a `/v1` route is logged and
 * may meet a fault.
 *
 * @module
 */

import {
  API_ROUTES,
  type ApiConfig,
  type ApiRoute,
  apiError,
  handleApi,
  redactKey,
  unroutedApi,
} from "./api.js";
import { controlRoute } from "./control.js";
import { type FaultRegistry, faultResponse } from "./faults.js";
import { favicon } from "./favicon.js";
import { html, type RawRequest, type RawResponse } from "./http.js";
import { randomId } from "./model/random.js";
import type { MockModel } from "./model/store.js";
import type { MockRequestLogEntry } from "./model/types.js";
import { renderPortal, renderPortalNotFound } from "./portal.js";
import { findRoute, type Route, type RouteMatch } from "./routes.js";
import type { MockService } from "./service.js";

/** The longest body kept in a request log entry; longer ones are cut and marked `bodyTruncated`. */
export const LOGGED_BODY_MAX_CHARS = 4096;

/** What the dispatcher needs. */
export interface DispatcherInput {
  /** The model. */
  model: MockModel;
  /** The faults. */
  faults: FaultRegistry;
  /** Resolved settings. */
  settings: Omit<ApiConfig, "baseUrl"> & { controlPrefix: string };
  /** The first base URL. */
  baseUrl: string;
  /** The service (for the control plane). */
  service: () => MockService;
}

/** Answers raw requests. */
export interface Dispatcher {
  /** The current base URL. */
  readonly baseUrl: string;
  /** Changes the base URL (the server, once it knows its port). */
  setBaseUrl(url: string): void;
  /** Answers one request; never rejects. */
  dispatch(req: RawRequest): Promise<RawResponse>;
}

/** A page route (portal, favicon). */
interface PageRoute
  extends Route<{ model: MockModel; controlPrefix: string; params: Record<string, string> }> {
  readonly handle: (context: {
    model: MockModel;
    controlPrefix: string;
    params: Record<string, string>;
  }) => RawResponse;
}

/** The pages a browser opens. */
export const PAGE_ROUTES: readonly PageRoute[] = [
  {
    method: "GET",
    path: "/portal/:paymentId",
    handle({ model, controlPrefix, params }) {
      const p = model.payments.get(params.paymentId!);
      if (!p) return html(404, renderPortalNotFound(params.paymentId!));
      model.refresh(p);
      const merchant = model.merchants.get(p.merchantId);
      const options = model.paymentOptions(p);
      return html(200, renderPortal({ payment: p, merchant, options, controlPrefix, now: model.now() }));
    },
  },
  { method: "GET", path: "/favicon.ico", handle: favicon },
];

/** Waits `ms` of real time, or less when the model is reset meanwhile (the request is then discarded). */
function sleep(model: MockModel, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      stop();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = model.onReset(done);
  });
}
const DROPPED: RawResponse = { status: 0, headers: {}, body: "", drop: true };

function logEntry(req: RawRequest, requestId: string, input: DispatcherInput): MockRequestLogEntry {
  const headers: Record<string, string> = {};
  for (const [name, value] of req.headerEntries()) {
    const n = name.toLowerCase();
    headers[n] =
      n === "api-key" ? redactKey(value, input.settings.keyPrefix) : n === "authorization" ? "***" : value;
  }
  const entry: MockRequestLogEntry = {
    requestId,
    time: input.model.now(),
    method: req.method,
    path: req.url.pathname,
    query: Object.fromEntries(req.url.searchParams),
    headers,
    body: null,
    version: req.header(input.settings.versionHeader.toLowerCase()) ?? null,
    status: null,
  };
  if (req.body.length > LOGGED_BODY_MAX_CHARS) {
    entry.body = req.body.slice(0, LOGGED_BODY_MAX_CHARS);
    entry.bodyTruncated = true;
  } else if (req.body !== "") {
    try {
      entry.body = JSON.parse(req.body);
    } catch {
      entry.body = req.body;
    }
  }
  return entry;
}

/** Answers a routed `/v1` request through its fault, if any; a `reset()` meanwhile drops it. */
async function answerApi(
  input: DispatcherInput,
  config: ApiConfig,
  req: RawRequest,
  match: RouteMatch<ApiRoute>,
): Promise<RawResponse> {
  const { model, faults } = input;
  const generation = model.generation;
  const fault = faults.take(req.method, req.url.pathname);
  if (fault?.type === "latency" && !fault.after) await sleep(model, fault.latencyMs ?? 1000);
  if (model.generation !== generation) return DROPPED;
  if (fault && !fault.after && fault.type !== "latency") return faultResponse(fault, null);
  const res = handleApi(model, config, req, match);
  if (!fault?.after) return res;
  if (fault.type !== "latency") return faultResponse(fault, res);
  await sleep(model, fault.latencyMs ?? 1000);
  return model.generation === generation ? res : DROPPED;
}

/** Creates the dispatcher over a model and its faults. */
export function createDispatcher(input: DispatcherInput): Dispatcher {
  let baseUrl = input.baseUrl;
  const config: ApiConfig = { ...input.settings, baseUrl: () => baseUrl };
  const { model, settings } = input;

  async function dispatch(req: RawRequest): Promise<RawResponse> {
    const path = req.url.pathname;
    const prefix = settings.controlPrefix;
    if (path === prefix || path.startsWith(`${prefix}/`)) {
      return controlRoute(input.service(), input.faults, req, path.slice(prefix.length) || "/");
    }
    const page = findRoute(PAGE_ROUTES, req.method, path);
    if (page !== null && page !== "method") {
      return page.route.handle({ model, controlPrefix: prefix, params: page.params });
    }
    const found = findRoute(API_ROUTES, req.method, path);
    if (found === null || found === "method") return apiError(config, req, unroutedApi(req, found));
    const requestId = randomId("req_", 20);
    const entry = logEntry(req, requestId, input);
    model.log(entry);
    const res = await answerApi(input, config, req, found);
    res.headers["request-id"] = requestId;
    entry.status = res.drop ? null : res.status;
    return res;
  }

  return {
    get baseUrl() {
      return baseUrl;
    },
    setBaseUrl(url) {
      baseUrl = url.replace(/\/+$/, "");
    },
    async dispatch(req) {
      try {
        return await dispatch(req);
      } catch (err) {
        return apiError(config, req, err);
      }
    },
  };
}
