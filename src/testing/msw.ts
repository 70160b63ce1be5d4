/**
 * `merchant-payments/testing/msw`: the mock service with MSW handlers (msw 2 or 3), one per route of the
 * mock's route tables (the `/v1` routes, the control plane, the portal pages), so a test's own
 * `server.use(http.get(...))` composes with them, and a request to a path the mock does not have is
 * unhandled (msw 3's `onUnhandledFrame: "error"`, msw 2's `onUnhandledRequest: "error"`, fires).
 *
 * This is the only module of the package that imports msw (an optional peer dependency); everything
 * else of `merchant-payments/testing` is re-exported here, so one import is enough.
 *
 * @module merchant-payments/testing/msw
 */

import { HttpResponse, http, type RequestHandler } from "msw";
import type { Dispatcher } from "./dispatch.js";
import { fromWebRequest, type RawResponse, toWebResponse } from "./http.js";
import { createMockServiceCore, dispatcherOf, type MockService, type MockServiceOptions } from "./service.js";

export * from "./index.js";

/** The mock service with MSW handlers. */
export interface MockServiceWithHandlers extends MockService {
  /** MSW handlers (msw 2 or 3), one per route of the mock: `setupServer(...service.handlers)`. */
  readonly handlers: RequestHandler[];
}

type Verb = "get" | "post" | "put" | "delete" | "patch";

/** The web answer of a raw one: a dropped connection (an injected fault) becomes a network error. */
function webAnswer(res: RawResponse): Response {
  return res.drop ? HttpResponse.error() : toWebResponse(res);
}

/**
 * Builds the MSW handlers of a dispatcher: one per route (method and path), which hands the request to that route
 * (MSW routed it: the mock does not route it again), then one per path for the other methods (405).
 */
function handlersOf(dispatcher: Dispatcher, base: string): RequestHandler[] {
  const byMethod = dispatcher.routes.map((route) =>
    http[route.method.toLowerCase() as Verb](`${base}${route.path}`, async ({ request }) =>
      webAnswer(await dispatcher.answer(await fromWebRequest(request), route)),
    ),
  );
  const paths = [...new Set(dispatcher.routes.map((r) => r.path))];
  const others = paths.map((path) =>
    http.all(`${base}${path}`, async ({ request }) =>
      webAnswer(await dispatcher.dispatch(await fromWebRequest(request))),
    ),
  );
  return [...byMethod, ...others];
}

/** Builds the MSW handlers of a mock service (one made by `createMockService`): one per route of its table. */
export function createMswHandlers(service: MockService): RequestHandler[] {
  return handlersOf(dispatcherOf(service), service.baseUrl);
}

/**
 * Creates the mock service with MSW handlers (same options as the msw-free `createMockService` of
 * `merchant-payments/testing`).
 *
 * @example
 * ```ts
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * server.listen({ onUnhandledFrame: "error" }); // msw 2: { onUnhandledRequest: "error" }
 * ```
 */
export function createMockService(options: MockServiceOptions = {}): MockServiceWithHandlers {
  const { service, dispatcher } = createMockServiceCore(options);
  return Object.defineProperty(service, "handlers", {
    value: handlersOf(dispatcher, service.baseUrl),
    enumerable: true,
  }) as MockServiceWithHandlers;
}
