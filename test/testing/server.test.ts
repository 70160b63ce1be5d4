import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/testing/index.js";
import { defineContract } from "./contract.js";
import { call } from "./harness.js";

const running: MockServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

defineContract({
  name: "server",
  async setup(options = {}) {
    const server = await startMockServer({ port: 0, ...options });
    running.push(server);
    return { mock: server.service, base: server.url };
  },
});

describe("server specifics", () => {
  it("listens on 127.0.0.1 and uses its own URL as baseUrl (clickable gatewayUrl)", async () => {
    const server = await startMockServer();
    running.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.service.baseUrl).toBe(server.url);
    const r = await call({ mock: server.service, base: server.url }, "POST", "/v1/merchant/payment", {
      merchantId: server.service.merchantId,
      body: { referenceId: "o", amount: { unit: "iso4217/EUR", value: "500" }, checkout: {} },
    });
    expect(r.body.gatewayUrl.startsWith(`${server.url}/portal/pay_`)).toBe(true);
    const page = await fetch(r.body.gatewayUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("5.00 EUR");
  });

  it("refuses non-loopback hosts", async () => {
    await expect(startMockServer({ host: "0.0.0.0" })).rejects.toThrow(/loopback/);
  });

  it("answers many concurrent requests over keep-alive", async () => {
    const server = await startMockServer();
    running.push(server);
    const h = { mock: server.service, base: server.url };
    const results = await Promise.all(Array.from({ length: 200 }, () => call(h, "GET", "/v1/merchants")));
    expect(results.every((r) => r.status === 200)).toBe(true);
  });

  it("close() is idempotent", async () => {
    const server = await startMockServer();
    await server.close();
    await server.close();
    await expect(fetch(`${server.url}/v1/merchants`)).rejects.toThrow();
  });

  it("server.ts and cli.ts never import msw (directly or through local modules)", () => {
    const root = resolve(__dirname, "../../src/testing");
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const src = readFileSync(file, "utf8");
      expect(src).not.toMatch(/from\s+["']msw/);
      expect(src).not.toMatch(/import\(\s*["']msw/);
      for (const m of src.matchAll(/from\s+["'](\.[^"']+)["']/g)) {
        visit(join(dirname(file), m[1]!.replace(/\.js$/, ".ts")));
      }
    };
    visit(join(root, "server.ts"));
    visit(join(root, "cli.ts"));
    expect(seen.size).toBeGreaterThan(5);
  });
});

describe("portal page script (run in a VM with a minimal DOM)", () => {
  interface El {
    textContent: string;
    hidden: boolean;
    disabled: boolean;
    className: string;
    listeners: Record<string, () => void>;
    addEventListener(type: string, fn: () => void): void;
  }

  async function openPortal(gatewayUrl: string) {
    const html = await (await fetch(gatewayUrl)).text();
    const data =
      /<script type="application\/json" id="mock-payment">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    const code = /<script>\n([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    const els: Record<string, El> = {};
    const el = (id: string): El => {
      els[id] ??= {
        textContent: id === "mock-payment" ? data : "",
        hidden: false,
        disabled: false,
        className: "",
        listeners: {},
        addEventListener(type, fn) {
          this.listeners[type] = fn;
        },
      };
      return els[id];
    };
    const page = { assigned: undefined as string | undefined, timers: [] as (() => void)[] };
    const context = {
      document: { getElementById: el },
      window: { location: { assign: (u: string) => (page.assigned = u) } },
      fetch: (url: string, init: RequestInit) => fetch(new URL(url, gatewayUrl), init),
      setTimeout: (fn: () => void) => page.timers.push(fn),
      JSON,
    };
    runInNewContext(code, context);
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 200 && el("result").textContent.startsWith("Processing"); i++) {
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    const runTimers = (): void => {
      for (let i = 0; i < 10 && page.timers.length > 0; i++) page.timers.shift()?.();
    };
    return { el, page, settle, runTimers };
  }

  it("Pay shows success, counts down 3 seconds and redirects to successUrl?payment_id", async () => {
    const server = await startMockServer();
    running.push(server);
    const h = { mock: server.service, base: server.url };
    const r = await call(h, "POST", "/v1/merchant/payment", {
      merchantId: server.service.merchantId,
      body: {
        referenceId: "o",
        amount: { unit: "iso4217/USD", value: "100" },
        checkout: { successUrl: "http://127.0.0.1:9/ok", errorUrl: "http://127.0.0.1:9/err" },
      },
    });
    const portal = await openPortal(r.body.gatewayUrl);
    portal.el("pay").listeners.click?.();
    await portal.settle();
    expect(portal.el("result").textContent).toBe("Payment successful.");
    expect(portal.el("countdown").textContent).toBe("Redirecting in 3…");
    expect(portal.el("pay").disabled).toBe(true);
    expect(portal.page.assigned).toBeUndefined();
    portal.runTimers();
    expect(portal.page.assigned).toBe(`http://127.0.0.1:9/ok?payment_id=${r.body.paymentId}`);
    expect(server.service.getPayment(r.body.paymentId).status).toBe("succeeded");
  });

  it("Fail without redirect URLs shows the generic error view", async () => {
    const server = await startMockServer();
    running.push(server);
    const h = { mock: server.service, base: server.url };
    const r = await call(h, "POST", "/v1/merchant/payment", {
      merchantId: server.service.merchantId,
      body: { referenceId: "o", amount: { unit: "iso4217/USD", value: "100" }, checkout: {} },
    });
    const portal = await openPortal(r.body.gatewayUrl);
    portal.el("fail").listeners.click?.();
    await portal.settle();
    expect(portal.el("result").textContent).toBe("The payment did not go through (failed).");
    expect(portal.el("countdown").textContent).toBe("");
    portal.runTimers();
    expect(portal.page.assigned).toBeUndefined();
    expect(server.service.getPayment(r.body.paymentId).status).toBe("failed");
  });
});
