/**
 * The one path from a request to an answer: find the route (once), answer it (the `/v1` chain with faults and the
 * request log, a control endpoint, or a page), turn anything thrown into an error answer, and give every answer,
 * refusals included, its `Request-Id` and the version header.
 *
 * @module
 */

import { boundedCopy } from "../model/text.js";
import { type ApiConfig, runChain } from "./api/chain.js";
import { API_ROUTES, type ApiRoute } from "./api/routes.js";
import { redactKey } from "./api/shapes.js";
import { CONTROL_ROUTES, type ControlRoute, controlBody } from "./control-endpoints.js";
import type { MockControls } from "./controls.js";
import { type FaultRegistry, faultResponse } from "./faults.js";
import { answerOfError, type RawRequest, type RawResponse } from "./http.js";
import { PAGE_ROUTES, type PageRoute } from "./portal/routes.js";
import { findRoute, matchPattern, pathSegments } from "./routes.js";
import { MockServiceError } from "./store/errors.js";
import { randomId } from "./store/random.js";
import { LOGGED_BODY_MAX_CHARS, type StoredLogEntry } from "./store/request-log.js";
import type { MockModel } from "./store/state.js";

/** A route of the mock's one table: a `/v1` route, a control endpoint (prefix included) or a page. */
export type MockRoute =
  | { readonly kind: "api"; readonly method: string; readonly path: string; readonly route: ApiRoute }
  | { readonly kind: "control"; readonly method: string; readonly path: string; readonly route: ControlRoute }
  | { readonly kind: "page"; readonly method: string; readonly path: string; readonly route: PageRoute };

/** Every route of a mock whose control endpoints live under `controlPrefix`. */
export function routeTable(controlPrefix: string): MockRoute[] {
  return [
    ...API_ROUTES.map((route) => ({ kind: "api" as const, method: route.method, path: route.path, route })),
    ...CONTROL_ROUTES.map((route) => ({
      kind: "control" as const,
      method: route.method,
      path: route.path === "/" ? controlPrefix : `${controlPrefix}${route.path}`,
      route,
    })),
    ...PAGE_ROUTES.map((route) => ({ kind: "page" as const, method: route.method, path: route.path, route })),
  ];
}

/** What the dispatcher needs. */
export interface DispatcherInput {
  /** The model. */
  model: MockModel;
  /** The faults. */
  faults: FaultRegistry;
  /** The control methods (for the control endpoints). */
  controls: MockControls;
  /** Resolved settings. */
  settings: ApiConfig & { controlPrefix: string };
  /** The current base URL. */
  baseUrl: () => string;
}

/** Answers raw requests; never rejects. */
export interface Dispatcher {
  /** Every route, in the order they are tried. */
  readonly routes: readonly MockRoute[];
  /** Finds the route of a request, then answers it. */
  dispatch(req: RawRequest): Promise<RawResponse>;
  /** Answers a request already routed (MSW matched it) to `route`. */
  answer(req: RawRequest, route: MockRoute): Promise<RawResponse>;
  /** The answer to a request refused before routing (the server's Host and size checks). */
  refuse(req: Pick<RawRequest, "header">, err: MockServiceError): RawResponse;
}

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

function logEntry(req: RawRequest, requestId: string, input: DispatcherInput): StoredLogEntry {
  const headers: Record<string, string> = {};
  for (const [name, value] of req.headerEntries()) {
    const n = name.toLowerCase();
    headers[n] =
      n === "api-key" ? redactKey(value, input.settings.keyPrefix) : n === "authorization" ? "***" : value;
  }
  const truncated = req.body.length > LOGGED_BODY_MAX_CHARS;
  return {
    requestId,
    time: input.model.now(),
    method: req.method,
    path: req.url.pathname,
    query: Object.fromEntries(req.url.searchParams),
    headers,
    // A copy: the log keeps 4 KiB, not the whole body behind a view.
    bodyText: truncated ? boundedCopy(req.body, LOGGED_BODY_MAX_CHARS) : req.body,
    ...(truncated ? { bodyTruncated: true } : {}),
    version: req.header(input.settings.versionHeader.toLowerCase()) ?? null,
    status: null,
  };
}

/** Answers a `/v1` request through its fault, if any; a `reset()` meanwhile drops it. */
async function answerApi(
  input: DispatcherInput,
  req: RawRequest,
  route: ApiRoute,
  params: Record<string, string>,
) {
  const { model, faults } = input;
  const generation = model.generation;
  const fault = faults.take(req.method, req.url.pathname);
  if (fault?.type === "latency" && !fault.after) await sleep(model, fault.latencyMs ?? 1000);
  if (model.generation !== generation) return DROPPED;
  if (fault && !fault.after && fault.type !== "latency") return faultResponse(fault, null);
  const chain = { model, config: input.settings, req, linkBase: req.linkBase ?? input.baseUrl(), params };
  let res: RawResponse;
  try {
    res = runChain(chain, route, route.handle);
  } catch (err) {
    res = answerOfError(err);
  }
  if (!fault?.after) return res;
  if (fault.type !== "latency") return faultResponse(fault, res);
  await sleep(model, fault.latencyMs ?? 1000);
  return model.generation === generation ? res : DROPPED;
}

/** The error of a request no route takes: 404 `not_found`, or 405 when the path exists under another method. */
function unrouted(req: RawRequest, found: "method" | null): MockServiceError {
  return found === "method"
    ? new MockServiceError(405, "method_not_allowed", `${req.method} is not allowed on ${req.url.pathname}.`)
    : new MockServiceError(404, "not_found", `No route for ${req.method} ${req.url.pathname}.`);
}

type Settings = DispatcherInput["settings"];

/** The last touch of every answer: its `Request-Id` and the version header (pinned by the request, or the default). */
function finish(settings: Settings, req: Pick<RawRequest, "header">, res: RawResponse, requestId: string) {
  if (res.drop) return res;
  const versionName = settings.versionHeader.toLowerCase();
  res.headers["request-id"] = requestId;
  res.headers[versionName] = req.header(versionName) ?? settings.defaultVersion;
  return res;
}

/** The path routed: control paths forgive trailing slashes (`/__mock/`), as a person typing them expects. */
function routedPath(settings: Settings, path: string): string {
  const prefix = settings.controlPrefix;
  if (path !== prefix && !path.startsWith(`${prefix}/`)) return path;
  return path.replace(/\/+$/, "") || "/";
}

/** Runs a routed request: a page, a control endpoint, or a logged `/v1` request. */
async function run(
  input: DispatcherInput,
  req: RawRequest,
  match: MockRoute,
  params: Record<string, string>,
  requestId: string,
): Promise<RawResponse> {
  const { model, settings } = input;
  if (match.kind === "page")
    return match.route.handle({ model, controlPrefix: settings.controlPrefix, params });
  if (match.kind === "control") {
    return match.route.handle({
      service: input.controls,
      faults: input.faults,
      req,
      params,
      body: controlBody(req),
    });
  }
  const entry = logEntry(req, requestId, input);
  model.requests.add(entry);
  const res = await answerApi(input, req, match.route, params);
  entry.status = res.drop ? null : res.status;
  return res;
}

/** Creates the dispatcher over a model, its faults and its controls. */
export function createDispatcher(input: DispatcherInput): Dispatcher {
  const { settings } = input;
  const routes = routeTable(settings.controlPrefix);
  const newId = (): string => randomId("req_", 20);

  async function answer(
    req: RawRequest,
    match: MockRoute,
    params: Record<string, string>,
  ): Promise<RawResponse> {
    const requestId = newId();
    try {
      return finish(settings, req, await run(input, req, match, params, requestId), requestId);
    } catch (err) {
      return finish(settings, req, answerOfError(err), requestId);
    }
  }

  return {
    routes,
    dispatch(req) {
      const found = findRoute(routes, req.method, routedPath(settings, req.url.pathname));
      if (found === null || found === "method") {
        return Promise.resolve(finish(settings, req, answerOfError(unrouted(req, found)), newId()));
      }
      return answer(req, found.route, found.params);
    },
    answer(req, route) {
      const segments = pathSegments(routedPath(settings, req.url.pathname));
      const params = segments && matchPattern(route.path, segments);
      return params ? answer(req, route, params) : this.dispatch(req);
    },
    refuse(req, err) {
      return finish(settings, req, answerOfError(err), newId());
    },
  };
}
