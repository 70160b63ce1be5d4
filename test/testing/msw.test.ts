import { getResponse, HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { createMockService, DEFAULT_MOCK_BASE_URL } from "../../src/testing/msw.js";
import { useMswServer } from "../helpers/msw.js";
import { defineContract } from "./contract.js";

const server = useMswServer();

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

  it("only answers its own origin (another origin has no handler)", async () => {
    const mock = createMockService({ baseUrl: "https://a.mock.test" });
    // Asked of the handlers directly: a request through the shared server would be printed by msw as unhandled.
    expect(await getResponse(mock.handlers, new Request("https://b.mock.test/v1/merchants"))).toBeUndefined();
    const own = await getResponse(mock.handlers, new Request("https://a.mock.test/v1/merchants"));
    expect(own?.status).toBe(401);
  });
});

describe("msw: one handler per route", () => {
  it("leaves a path the mock does not have unhandled, so the unhandled-request option fires", async () => {
    const mock = createMockService();
    expect(await getResponse(mock.handlers, new Request(`${mock.baseUrl}/v1/merchantz`))).toBeUndefined();
    expect(await getResponse(mock.handlers, new Request(`${mock.baseUrl}/v2/merchants`))).toBeUndefined();
    const wrongMethod = await getResponse(
      mock.handlers,
      new Request(`${mock.baseUrl}/v1/merchants`, { method: "DELETE" }),
    );
    expect(wrongMethod?.status).toBe(405);
  });

  it("composes with a test's own handler for one route; the other routes still answer", async () => {
    const mock = createMockService();
    server.use(...mock.handlers);
    server.use(
      http.get(`${mock.baseUrl}/v1/merchants/:merchantId`, () =>
        HttpResponse.json({ message: "overridden", code: "maintenance" }, { status: 503 }),
      ),
    );
    const headers = { "Api-Key": mock.keys.test };
    const overridden = await fetch(`${mock.baseUrl}/v1/merchants/${mock.merchantId}`, { headers });
    expect(overridden.status).toBe(503);
    const list = await fetch(`${mock.baseUrl}/v1/merchants`, { headers });
    expect(list.status).toBe(200);
  });

  it("serves the control plane and the portal through their own handlers", async () => {
    const mock = createMockService();
    server.use(...mock.handlers);
    expect((await fetch(`${mock.baseUrl}${mock.controlPrefix}`)).status).toBe(200);
    const icon = await fetch(`${mock.baseUrl}/favicon.ico`);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
  });
});
