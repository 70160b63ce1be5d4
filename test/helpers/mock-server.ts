/** The bundled mock service over real HTTP on 127.0.0.1, for one test file. */
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { type MockServer, type MockServerOptions, startMockServer } from "../../src/testing/index.js";
import { flushRejections, trackUnhandledRejections } from "./outcomes.js";

/**
 * The mock service over real HTTP for the calling test file: started before all its tests, reset after each, and
 * closed after all, once the file is checked to have left no unhandled rejection. Returns the running server.
 */
export function useMockServer(options?: MockServerOptions): () => MockServer {
  let server: MockServer | undefined;
  const rejections = trackUnhandledRejections();
  beforeAll(async () => {
    server = await startMockServer(options);
  });
  afterEach(() => server?.service.reset());
  afterAll(async () => {
    await flushRejections();
    rejections.stop();
    expect(rejections.seen).toEqual([]);
    await server?.close();
  });
  return () => {
    if (!server) throw new Error("the mock server runs only while the tests of the file run");
    return server;
  };
}
