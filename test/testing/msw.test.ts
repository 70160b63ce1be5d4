import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMockService, DEFAULT_MOCK_BASE_URL } from "../../src/testing/index.js";
import { defineContract } from "./contract.js";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

defineContract({
  name: "msw",
  async setup(options = {}) {
    const mock = createMockService(options);
    server.use(...mock.handlers);
    return { mock, base: mock.baseUrl };
  },
});

describe("msw: defaults and the fetch function", () => {
  it("createMockService() with no args is usable", async () => {
    const mock = createMockService();
    expect(mock.baseUrl).toBe(DEFAULT_MOCK_BASE_URL);
    expect(mock.merchantId).toMatch(/^mrch_/);
    expect(mock.liveMerchantId).toMatch(/^mrch_/);
    expect(mock.handlers.length).toBeGreaterThan(0);
    const res = await mock.fetch(`${mock.baseUrl}/v1/merchants/${mock.merchantId}`, {
      headers: { "Api-Key": mock.keys.test },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { merchant: { settlements: { crypto: unknown[] } } };
    expect(body.merchant.settlements.crypto).toHaveLength(1);
  });

  it("service.fetch rejects on a dropped connection; handle() returns Response.error()", async () => {
    const mock = createMockService();
    mock.injectFault({ type: "drop", times: 2 });
    await expect(
      mock.fetch(`${mock.baseUrl}/v1/merchants`, { headers: { "Api-Key": mock.keys.test } }),
    ).rejects.toThrow(TypeError);
    const res = await mock.handle(new Request(`${mock.baseUrl}/v1/merchants`));
    expect(res.type).toBe("error");
  });

  it("control methods are bound (destructuring works) and report bad transitions", () => {
    const { completePayment, failPayment } = createMockService();
    expect(() => completePayment("pay_nope")).toThrow(/No such payment/);
    expect(() => failPayment("pay_nope")).toThrow(
      expect.objectContaining({ status: 404, code: "not_found" }),
    );
  });

  it("only answers its own origin", async () => {
    const mock = createMockService({ baseUrl: "https://a.mock.test" });
    server.use(...mock.handlers);
    await expect(fetch("https://b.mock.test/v1/merchants")).rejects.toThrow();
  });
});
