/**
 * The MSW server of a test file, and the listen options that make an unhandled request fail the test, on msw 2
 * (`onUnhandledRequest`) and msw 3 (`onUnhandledFrame`, the same option renamed): CI runs the unit suite on both
 * majors (`scripts/test-msw-2.sh`).
 */

import { setupServer as setupMswServer, type setupServer } from "msw/node";
import mswPackage from "msw/package.json" with { type: "json" };
import { afterAll, afterEach, beforeAll } from "vitest";

type ListenOptions = Parameters<ReturnType<typeof setupServer>["listen"]>[0];

/** Read through vitest's resolver, which the msw 2 lane points at msw 2. */
const mswMajor = Number(mswPackage.version.split(".")[0]);

/** `server.listen(FAIL_ON_UNHANDLED)`: a request no handler takes is an error, never a real network call. */
export const FAIL_ON_UNHANDLED = (
  mswMajor >= 3 ? { onUnhandledFrame: "error" } : { onUnhandledRequest: "error" }
) as ListenOptions;

/**
 * The MSW server of the calling test file: listening before its tests (a request no handler takes fails the test),
 * back to `handlers` after each test (what a test added with `server.use()` is gone), closed after all.
 */
export function useMswServer(...handlers: Parameters<typeof setupServer>): ReturnType<typeof setupServer> {
  const server = setupMswServer(...handlers);
  beforeAll(() => server.listen(FAIL_ON_UNHANDLED));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}
