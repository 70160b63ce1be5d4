import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const TSX = "node_modules/.bin/tsx";

describe("npm run demo", () => {
  it("walks the whole checkout flow against the bundled mock and exits 0", async () => {
    const { stdout } = await run(TSX, ["examples/demo.ts"], { timeout: 60_000 });
    expect(stdout).toContain("fulfilled after server-side verification");
    expect(stdout).toContain("not fulfilled; buyer offered a retry");
    expect(stdout).toContain("not fulfilled: the service says cancelled");
    expect(stdout).toContain("forged return refused");
    expect(stdout).toMatch(/order ord_\S+ shipped exactly once/);
    expect(stdout).toMatch(/order ord_\S+ still shipped exactly once/);
    expect(stdout).not.toContain("FAIL");
    expect(stdout).toContain("Demo complete: every step behaved.");
  }, 60_000);

  it("with --serve keeps the shop and the mock up for a browser", async () => {
    const child = spawn(TSX, ["examples/demo.ts", "--serve", "--shop-port", "0", "--mock-port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const shopUrl = await new Promise<string>((resolve, reject) => {
        let out = "";
        const timer = setTimeout(() => reject(new Error(`no shop URL printed: ${out}`)), 50_000);
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const match = /Open (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      const home = await fetch(shopUrl);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('id="buy"');
      const order = await fetch(`${shopUrl}/orders`, { method: "POST", redirect: "manual" });
      expect(order.status).toBe(303);
      const portal = await fetch(order.headers.get("location") ?? "");
      expect(await portal.text()).toContain("Demo Mug Shop");
    } finally {
      child.kill("SIGINT");
    }
  }, 60_000);
});
