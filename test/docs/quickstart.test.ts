/**
 * The README's hello world and quickstart, run as a newcomer runs them (issue #28): each block saved as its own file
 * and started with tsx, configured only by the three environment variables, against the mock over HTTP. The hello
 * world reaches a paid checkout; the quickstart shop takes an order, sends the buyer to the portal, verifies the
 * return and ships once, however often the buyer reloads.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/testing/index.js";
import { freePort } from "../helpers/ports.js";
import { codeBlocks, ROOT } from "./doc-blocks.js";

const DIR = join(ROOT, ".tmp", "readme-quickstart");
const TSX = join(ROOT, "node_modules/.bin/tsx");

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ pollInMs: 10 });
  mkdirSync(DIR, { recursive: true });
});
afterAll(async () => {
  await mock?.close();
});

/** The README's three variables, and nothing else of ours. */
const env = (extra: Record<string, string> = {}) => ({
  ...process.env,
  MERCHANT_PAYMENTS_API_KEY: mock.service.keys.test,
  MERCHANT_PAYMENTS_BASE_URL: mock.url,
  MERCHANT_PAYMENTS_MERCHANT_ID: mock.service.merchantId,
  ...extra,
});

/** The README block with this marker (`run` blocks: the first one), written to a file of its own. */
function readmeBlock(marker: string, name: string, pick = 0): string {
  const block = codeBlocks("README.md").filter((candidate) => candidate.marker === marker)[pick];
  if (!block) throw new Error(`README.md has no <!-- docs: ${marker} --> block`);
  const file = join(DIR, name);
  writeFileSync(file, block.code);
  return file;
}

describe("the hello world", () => {
  it("reaches a paid checkout in the mock and says to ship", async () => {
    const file = readmeBlock("run", "hello.mts");
    const { stdout } = await promisify(execFile)(TSX, [file], { cwd: ROOT, env: env(), timeout: 60_000 });
    expect(stdout).toMatch(/checkout pay_\w+: http:\/\/127\.0\.0\.1:\d+\/portal\/pay_\w+/);
    expect(stdout).toContain("succeeded → ship the order");
    const paid = mock.service.payments.filter((payment) => payment.status === "succeeded");
    expect(paid.length).toBeGreaterThan(0);
  }, 90_000);
});

describe("the quickstart shop", () => {
  let shop: ChildProcess | undefined;
  let output = "";
  afterEach(() => {
    shop?.kill("SIGTERM");
  });

  it("creates the checkout, verifies the return and ships once", async () => {
    const file = readmeBlock("shop", "shop.mts");
    const port = await freePort();
    shop = spawn(TSX, [file], { cwd: ROOT, env: env({ PORT: String(port) }) });
    shop.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    shop.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const origin = `http://127.0.0.1:${port}`;
    for (let tries = 0; !output.includes(`Shop on ${origin}`); tries++) {
      if (tries > 600 || shop.exitCode !== null) throw new Error(`the shop did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const placed = await fetch(`${origin}/orders`, { method: "POST", redirect: "manual" });
    expect(placed.status).toBe(303);
    const portal = placed.headers.get("location") ?? "";
    const paymentId = /\/portal\/(pay_\w+)/.exec(portal)?.[1];
    expect(paymentId).toBeDefined();

    const back = mock.service.simulateBuyer(paymentId!, { outcome: "success" });
    expect(back).toMatch(new RegExp(`^${origin}/paid\\?order=`));
    const first = await fetch(back!);
    expect(await first.text()).toBe("Paid, thank you!");
    const reload = await fetch(back!);
    expect(await reload.text()).toBe("Paid, thank you!");
    expect(output.match(/shipping order/g)).toHaveLength(1);

    const forged = await fetch(back!.replace(paymentId!, "pay_forged"));
    expect(forged.status).toBe(400);
  }, 90_000);
});
