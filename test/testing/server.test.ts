import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/testing/index.js";
import { call } from "../helpers/mock-harness.js";
import { defineContract } from "./contract.js";

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

// The portal page's script is tested in a real browser (test/testing/portal.e2e.test.ts, every payment state) and its
// HTML without one (test/testing/portal.test.ts).
