/**
 * `merchant-payments/testing/msw`: the mock service with MSW handlers (msw 2 or 3), one per route of the
 * mock's route tables (the `/v1` routes, the control plane, the portal pages), so a test's own
 * `server.use(http.get(...))` composes with them, and a request to a path the mock does not have is
 * unhandled (msw 3's `onUnhandledFrame: "error"`, msw 2's `onUnhandledRequest: "error"`, fires).
 *
 * This is the only module of the package that imports msw (an optional peer dependency); everything
 * else of `merchant-payments/testing` is re-exported here, so one import is enough.
 *
 * @module
 */

import { HttpResponse, http, type RequestHandler } from "msw";
import { API_ROUTES } from "./api.js";
import { CONTROL_ROUTES } from "./control.js";
import { PAGE_ROUTES } from "./dispatch.js";
import type { Route } from "./routes.js";
import { createMockServiceCore, type MockService, type MockServiceOptions } from "./service.js";

export * from "./index.js";

/** The mock service with MSW handlers. */
export interface MockServiceWithHandlers extends MockService {
  /** MSW 2 handlers, one per route of the mock: `setupServer(...service.handlers)`. */
  readonly handlers: RequestHandler[];
}

type Verb = "get" | "post" | "put" | "delete" | "patch";

/**
 * Builds the MSW handlers of a mock service: one per route (method and path) of its tables, then one
 * per path for the other methods (405). Each hands the request to `service.handle`; a dropped
 * connection (an injected fault) becomes a network error.
 */
export function createMswHandlers(service: MockService): RequestHandler[] {
  const base = service.baseUrl;
  const control = CONTROL_ROUTES.map((r) => ({
    method: r.method,
    path: r.path === "/" ? service.controlPrefix : `${service.controlPrefix}${r.path}`,
  }));
  const routes: Pick<Route<never>, "method" | "path">[] = [...API_ROUTES, ...control, ...PAGE_ROUTES];
  const answer = async ({ request }: { request: Request }): Promise<Response> => {
    const res = await service.handle(request);
    return res.type === "error" ? HttpResponse.error() : res;
  };
  const byMethod = routes.map((r) => http[r.method.toLowerCase() as Verb](`${base}${r.path}`, answer));
  const paths = [...new Set(routes.map((r) => r.path))];
  return [...byMethod, ...paths.map((path) => http.all(`${base}${path}`, answer))];
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
  const { service } = createMockServiceCore(options);
  return Object.defineProperty(service, "handlers", {
    value: createMswHandlers(service),
    enumerable: true,
  }) as MockServiceWithHandlers;
}
