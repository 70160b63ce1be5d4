/**
 * on a runtime that cannot load `node:http` (workerd without compatibility flags, a bundle made
 * without the package's export conditions), the Node build's default transport fails to load. The merchant then gets
 * a ConfigurationError that says to pass `fetch`, not the runtime's own "No such module"; and passing `fetch` works.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type MockServer, startMockServer } from "../../../src/testing/index.js";

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
  // From here on, a fresh import of the SDK meets a runtime whose node:http cannot be loaded.
  vi.resetModules();
  vi.doMock("node:http", () => {
    throw new Error('No such module "node:http".');
  });
});
afterAll(() => mock.close());

describe("a runtime without node:http", () => {
  it("the first call is a ConfigurationError naming the fetch option; nothing was sent", async () => {
    const { MerchantPaymentsClient, ConfigurationError } = await import("../../../src/index.js");
    const client = new MerchantPaymentsClient({
      apiKey: mock.service.keys.test,
      baseUrl: mock.url,
      merchantId: mock.service.merchantId,
      maxRetries: 0,
    });
    const error = await client.payments.status("pay_1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/`fetch: globalThis\.fetch`/);
    expect(mock.service.requests).toHaveLength(0);
  });

  it("with `fetch` given, the same client works", async () => {
    const { MerchantPaymentsClient } = await import("../../../src/index.js");
    const client = new MerchantPaymentsClient({
      apiKey: mock.service.keys.test,
      baseUrl: mock.url,
      merchantId: mock.service.merchantId,
      fetch: (input, init) => globalThis.fetch(input, init),
    });
    const list = await client.merchants.list();
    expect(list.data.length).toBeGreaterThan(0);
  });
});
