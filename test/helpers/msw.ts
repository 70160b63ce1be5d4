/**
 * The listen options that make an unhandled request fail the test, on msw 2 (`onUnhandledRequest`) and msw 3
 * (`onUnhandledFrame`, the same option renamed): CI runs the MSW tests on both majors.
 */
import { createRequire } from "node:module";
import type { setupServer } from "msw/node";

type ListenOptions = Parameters<ReturnType<typeof setupServer>["listen"]>[0];

const mswMajor = Number(
  (createRequire(import.meta.url)("msw/package.json") as { version: string }).version.split(".")[0],
);

/** `server.listen(FAIL_ON_UNHANDLED)`: a request no handler takes is an error, never a real network call. */
export const FAIL_ON_UNHANDLED = (
  mswMajor >= 3 ? { onUnhandledFrame: "error" } : { onUnhandledRequest: "error" }
) as ListenOptions;
