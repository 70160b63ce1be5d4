/**
 * The CI check: the doctor as its own process (the bin's source, run by tsx) against the bundled mock server on
 * 127.0.0.1 exits 0 with every operation ok; bad usage exits 2; nothing it prints holds the key.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { DoctorReport } from "../../src/doctor/report.js";
import { useMockServer } from "../helpers/mock-server.js";

const root = resolve(__dirname, "../..");
const TSX = resolve(root, "node_modules/tsx/dist/cli.mjs");
const server = useMockServer();

/** Runs the doctor's bin to its exit (bounded): its status and both outputs. */
function runDoctor(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [TSX, "src/doctor/cli.ts", ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`the doctor did not exit in time:\n${out}\n${err}`));
    }, 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    });
  });
}

describe("merchant-payments-doctor against the bundled mock server", () => {
  it("exits 0 with every operation ok, the version echoed and the clock skew measured", async () => {
    const { url, service } = server();
    const key = service.keys.test;
    const { code, out, err } = await runDoctor(["--json", "--base-url", url], {
      MERCHANT_PAYMENTS_API_KEY: key,
    });
    expect(err).toBe("");
    expect(code).toBe(0);
    const report = JSON.parse(out) as DoctorReport;
    expect(report.operations.length).toBeGreaterThanOrEqual(8);
    expect(report.operations.every((op) => op.outcome === "ok")).toBe(true);
    expect(report.service.version).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(typeof report.service.clockSkewMs).toBe("number");
    expect(out).not.toContain(key);
  });

  it("prints its table without colour when stdout is not a terminal; bad usage exits 2", async () => {
    const { url, service } = server();
    const env = { MERCHANT_PAYMENTS_API_KEY: service.keys.test, MERCHANT_PAYMENTS_BASE_URL: url };
    const human = await runDoctor([], env);
    expect(human.code).toBe(0);
    expect(human.out).toContain("8 operations: 8 ok");
    expect(human.out).not.toContain("\u001b[");
    expect(human.out + human.err).not.toContain(service.keys.test);
    const bad = await runDoctor(["--jsn"], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("Usage: merchant-payments-doctor");
  });
});
