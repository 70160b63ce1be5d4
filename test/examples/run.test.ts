/**
 * The examples' one commands (issue #28): `npm run example:<name>` installs the examples' dependencies and runs
 * `examples/run.ts <name>`, which starts a mock service when no `MERCHANT_PAYMENTS_*` variables are set. Here: the
 * merchant setup runs to its end against that mock and keeps its state file in the ignored `.data/` folder, and the
 * Hono shop serves on Node through `@hono/node-server` (`examples/hono/server.ts`), up to the buyer's redirect.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it, vi } from "vitest";
import { startHonoShop } from "../../examples/hono/server.js";
import { startMockServer } from "../../src/testing/index.js";
import { freePort } from "../helpers/ports.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX = join(ROOT, "node_modules/.bin/tsx");
const work = mkdtempSync(join(tmpdir(), "examples-run-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("examples/run.ts setup-merchant (npm run example:setup-merchant)", () => {
  it("sets a merchant up against a mock of its own, and keeps its state file under .data/", async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      MOCK_PORT: "0",
      TSX_TSCONFIG_PATH: join(ROOT, "tsconfig.json"),
    };
    for (const name of [
      "MERCHANT_PAYMENTS_API_KEY",
      "MERCHANT_PAYMENTS_BASE_URL",
      "MERCHANT_PAYMENTS_MERCHANT_ID",
    ]) {
      delete env[name];
    }
    const { stdout } = await promisify(execFile)(TSX, [join(ROOT, "examples/run.ts"), "setup-merchant"], {
      cwd: work,
      env,
      timeout: 60_000,
    });
    expect(stdout).toMatch(/Mock service on http:\/\/127\.0\.0\.1:\d+/);
    const result = JSON.parse(stdout.slice(stdout.indexOf("{"))) as {
      mode: string;
      merchantId: string;
    };
    expect(result.mode).toBe("test");
    expect(result.merchantId).toMatch(/^mrch_/);
    expect(existsSync(join(work, ".merchant-setup.json"))).toBe(false);
    expect(readFileSync(join(work, ".data", "merchant-setup.json"), "utf8")).toContain("idempotencyKey");
  }, 90_000);
});

describe("examples/hono/server.ts (npm run example:hono)", () => {
  it("serves the Hono shop on Node: an order redirects the buyer to the portal", async () => {
    const mock = await startMockServer({ pollInMs: 20 });
    vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", mock.service.keys.test);
    vi.stubEnv("MERCHANT_PAYMENTS_BASE_URL", mock.url);
    vi.stubEnv("MERCHANT_PAYMENTS_MERCHANT_ID", mock.service.merchantId);
    const shop = await startHonoShop({ PORT: String(await freePort()), SHOP_DATA_DIR: "memory://" });
    try {
      const placed = await fetch(`${shop.url}/orders`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ amount: "19.99", currency: "USD" }),
        redirect: "manual",
      });
      expect(placed.status).toBe(303);
      expect(placed.headers.get("location")).toMatch(new RegExp(`^${mock.url}/portal/pay_`));
    } finally {
      await shop.close();
      await mock.close();
    }
  }, 90_000);
});
