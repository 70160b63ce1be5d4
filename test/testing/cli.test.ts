import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");
let child: ChildProcess | undefined;

/** Signals the whole process group (npx → tsx → node): npx does not forward signals to its child. */
function killGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (proc.pid !== undefined) process.kill(-proc.pid, signal);
  } catch {
    // already gone
  }
}

afterEach(() => {
  if (child) killGroup(child, "SIGKILL");
  child = undefined;
});

/** The CLI as its own process group (so a test can stop it whole), with what it printed so far. */
function spawnCli(args: string[]): { proc: ChildProcess; output: { out: string; err: string } } {
  const proc = spawn("npx", ["tsx", "src/testing/cli.ts", ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child = proc;
  const output = { out: "", err: "" };
  proc.stdout?.on("data", (d: Buffer) => {
    output.out += d.toString();
  });
  proc.stderr?.on("data", (d: Buffer) => {
    output.err += d.toString();
  });
  return { proc, output };
}

/** Starts the CLI and resolves once it says it is ready (bounded). */
function startCli(args: string[]): Promise<{ out: string; proc: ChildProcess }> {
  return new Promise((resolvePromise, reject) => {
    const { proc, output } = spawnCli(args);
    const timer = setTimeout(
      () => reject(new Error(`CLI did not start in time:\n${output.out}\n${output.err}`)),
      12_000,
    );
    proc.stdout?.on("data", () => {
      if (!output.out.includes("Press Ctrl+C")) return;
      clearTimeout(timer);
      resolvePromise({ out: output.out, proc });
    });
    proc.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${code}:\n${output.out}\n${output.err}`));
    });
  });
}

/** Runs the CLI to its exit (bounded): its status and both outputs. */
function runCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolvePromise, reject) => {
    const { proc, output } = spawnCli(args);
    const timer = setTimeout(
      () => reject(new Error(`CLI did not exit in time:\n${output.out}\n${output.err}`)),
      20_000,
    );
    proc.on("exit", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, ...output });
    });
  });
}

describe("merchant-payments-mock CLI", () => {
  it("prints URL, keys, merchant id and control prefix, answers, and stops on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mock-cli-"));
    const seedFile = join(dir, "seed.json");
    writeFileSync(
      seedFile,
      JSON.stringify({
        accounts: [
          {
            keys: { test: "mock_test_cli", live: "mock_cli" },
            merchants: [{ id: "mrch_cli", name: "CLI Shop" }],
          },
        ],
      }),
    );
    const { out, proc } = await startCli(["--port", "0", "--poll-ms", "7", "--seed", seedFile]);
    rmSync(dir, { recursive: true, force: true });
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    const key = /test key:\s+(\S+)/.exec(out)?.[1];
    const merchantId = /merchant id:\s+(mrch_\S+)/.exec(out)?.[1];
    expect(url).toBeDefined();
    expect(key).toBe("mock_test_cli");
    expect(merchantId).toBe("mrch_cli");
    expect(out).toMatch(/live key:\s+mock_/);
    expect(out).toContain("/__mock");
    expect(out).toContain(
      `export MERCHANT_PAYMENTS_BASE_URL=${url} MERCHANT_PAYMENTS_API_KEY=mock_test_cli MERCHANT_PAYMENTS_MERCHANT_ID=mrch_cli`,
    );
    const created = await fetch(`${url}/v1/payments`, {
      method: "POST",
      headers: { "Api-Key": key!, "Merchant-Id": merchantId!, "Content-Type": "application/json" },
      body: JSON.stringify({ referenceId: "cli", amount: { unit: "iso4217/USD", value: "100" } }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const status = await fetch(`${url}/v1/payments/${id}/status`, {
      headers: { "Api-Key": key!, "Merchant-Id": merchantId! },
    });
    expect(await status.json()).toEqual({ status: "requires_action", isFinal: false, pollInMs: 7 });
    proc.removeAllListeners("exit");
    const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
    killGroup(proc, "SIGTERM");
    const code = await Promise.race([
      exited,
      new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 8000)),
    ]);
    expect(code).not.toBe("timeout");
  }, 30_000);

  it("refuses a non-loopback host", async () => {
    await expect(startCli(["--port", "0", "--host", "0.0.0.0"])).rejects.toThrow(/loopback/);
  }, 30_000);

  it("says a busy port is busy (exit 1), without the usage line", async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const { port } = blocker.address() as AddressInfo;
    try {
      const { code, err } = await runCli(["--port", String(port)]);
      expect(code).toBe(1);
      expect(err).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(err).not.toContain("Usage:");
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  }, 30_000);

  it("warns that the mock has no authentication when asked to listen beyond loopback", async () => {
    // 192.0.2.1 (TEST-NET-1) is no interface of this machine: the bind fails after the warning, nothing listens.
    const { code, err } = await runCli(["--port", "0", "--host", "192.0.2.1", "--allow-remote"]);
    expect(err).toContain("has no authentication");
    expect(code).toBe(1);
  }, 30_000);

  it("--help lists every option with an example, and the seed file format with fixed keys", async () => {
    const { code, out } = await runCli(["--help"]);
    expect(code).toBe(0);
    const options = [...out.matchAll(/^\s+(?:-h, )?(--[a-z-]+)/gm)].map((m) => m[1]);
    expect(options).toEqual(
      expect.arrayContaining([
        "--port",
        "--host",
        "--allow-remote",
        "--allowed-host",
        "--public-url",
        "--seed",
      ]),
    );
    expect(options).toEqual(expect.arrayContaining(["--allow-insecure-http", "--poll-ms", "--help"]));
    for (const option of options.filter((o) => !["--help", "--allow-remote"].includes(o!))) {
      expect(out, option).toMatch(new RegExp(`e\\.g\\. [^\\n]*${option}`));
    }
    const seed = /Seed file[^\n]*\n([\s\S]*?)\n {2}Test keys/.exec(out)?.[1];
    const parsed = JSON.parse(seed ?? "null") as { accounts: { keys: { test: string } }[] };
    expect(parsed.accounts[0]?.keys.test).toMatch(/^mock_test_/);
  }, 30_000);

  it("docs/mock.md documents every option --help lists", async () => {
    const { out } = await runCli(["--help"]);
    const doc = readFileSync(join(root, "docs/mock.md"), "utf8");
    for (const [, option] of out.matchAll(/^\s+(?:-h, )?(--[a-z-]+)/gm))
      expect(doc, option).toContain(option);
    expect(doc).toContain("docker compose");
  }, 30_000);

  it("names the seed file in every error about it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mock-cli-"));
    try {
      const broken = join(dir, "broken.json");
      writeFileSync(broken, '{"accounts": [');
      const named = join(dir, "named.json");
      writeFileSync(named, JSON.stringify({ accounts: [{ merchants: [{ name: {} }] }] }));
      const missing = join(dir, "missing.json");
      for (const [file, why] of [
        [broken, /not valid JSON/],
        [named, /accounts\.0.*name/],
        [missing, /cannot read/],
      ] as const) {
        const { code, err } = await runCli(["--port", "0", "--seed", file]);
        expect(code).toBe(2);
        expect(err).toContain(`--seed ${file}`);
        expect(err).toMatch(why);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("--public-url names the server in its banner and in every link", async () => {
    const { out } = await startCli(["--port", "0", "--public-url", "http://localhost:4999"]);
    expect(out).toMatch(/listening on port \d+; links point to http:\/\/localhost:4999/);
  }, 30_000);
});
