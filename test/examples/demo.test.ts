import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const TSX = "node_modules/.bin/tsx";

/** The demo's own temporary folder for each test: what is left in it afterwards is what the demo leaked. */
let tmp: string;
const env = () => ({ ...process.env, TMPDIR: tmp, TEMP: tmp, TMP: tmp });
/** What the demo left in the temporary folder (the compile caches of tsx, `tsx-*`, and of Node are the tools'). */
const leftovers = () =>
  readdirSync(tmp).filter((name) => !name.startsWith("tsx-") && name !== "node-compile-cache");
/** Both outputs of a demo that did not serve, for the failure's message: stderr says why it died. */
const outputs = (stdout: string, stderr: string) => `--- stdout:\n${stdout}\n--- stderr:\n${stderr}`;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "demo-test-"));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe("npm run demo", () => {
  it("walks the whole checkout flow against the bundled mock, exits 0 and leaves nothing behind", async () => {
    const { stdout } = await run(TSX, ["examples/demo.ts"], { timeout: 90_000, env: env() });
    expect(stdout).toContain("fulfilled after server-side verification");
    expect(stdout).toContain("not fulfilled; buyer offered a retry");
    expect(stdout).toContain("not fulfilled: the service says cancelled");
    expect(stdout).toContain("forged return refused");
    expect(stdout).toMatch(/order ord_\S+ shipped exactly once/);
    expect(stdout).toMatch(/order ord_\S+ still shipped exactly once/);
    expect(stdout).not.toContain("FAIL");
    expect(stdout).toContain("Demo complete: every step behaved.");
    expect(leftovers()).toEqual([]);
  }, 90_000);

  it("with --serve keeps the shop and the mock up for a browser; SIGTERM stops it and removes its database", async () => {
    const child = spawn(TSX, ["examples/demo.ts", "--serve", "--shop-port", "0", "--mock-port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: env(),
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      const shopUrl = await new Promise<string>((resolve, reject) => {
        let out = "";
        let err = "";
        // A demo that dies before serving says why on stderr: read it (an unread pipe can also fill and block the
        // demo) and fail at once with both outputs, not after the timeout with stdout alone.
        const fail = (why: string) => reject(new Error(`${why}\n${outputs(out, err)}`));
        const timer = setTimeout(() => fail("no shop URL printed in 80 s"), 80_000);
        child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
        child.once("exit", (code, signal) => {
          clearTimeout(timer);
          fail(`the demo exited (${signal ?? code}) before serving`);
        });
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const match = /Open (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      expect(leftovers().some((name) => name.startsWith("merchant-payments-demo-"))).toBe(true);
      const home = await fetch(shopUrl);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('id="buy"');
      const order = await fetch(`${shopUrl}/orders`, { method: "POST", redirect: "manual" });
      expect(order.status).toBe(303);
      const portal = await fetch(order.headers.get("location") ?? "");
      expect(await portal.text()).toContain("Demo Mug Shop");
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(leftovers()).toEqual([]);
    } finally {
      child.kill("SIGKILL");
    }
  }, 120_000);

  it("npm run demo -- --serve: SIGTERM to npm alone stops every process of the chain, frees both ports, removes the database", async () => {
    // npm → sh -c → scripts/example.mjs → tsx → node: npm passes the signal to the shell only, which dies of it.
    const npm = spawn("npm", ["run", "demo", "--", "--serve", "--shop-port", "0", "--mock-port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: env(),
      detached: true, // its own process group: the test can end every process it left, by the group's id
    });
    const exited = new Promise<void>((resolve) => npm.once("exit", () => resolve()));
    try {
      let out = "";
      let err = "";
      npm.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      npm.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      for (let tries = 0; !/Open http:\/\/127\.0\.0\.1:\d+/.test(out); tries++) {
        if (tries > 1_000 || npm.exitCode !== null) {
          throw new Error(`the demo did not serve:\n${outputs(out, err)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const shopUrl = /Open (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? "";
      const mockUrl = /mock service listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? "";
      expect((await fetch(shopUrl)).status).toBe(200);
      process.kill(npm.pid!, "SIGTERM");
      await exited;
      // The demo behind npm closes its servers and removes its database, then every process of the chain exits.
      let groupAlive = true;
      for (let tries = 0; groupAlive && tries < 300; tries++) {
        try {
          process.kill(-npm.pid!, 0);
          await new Promise((resolve) => setTimeout(resolve, 100));
        } catch {
          groupAlive = false;
        }
      }
      expect(groupAlive).toBe(false);
      await expect(fetch(shopUrl)).rejects.toThrow();
      await expect(fetch(mockUrl)).rejects.toThrow();
      expect(leftovers()).toEqual([]);
    } finally {
      try {
        process.kill(-npm.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }, 180_000);
});
