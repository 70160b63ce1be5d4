// 10,000 concurrent `payments.watch()` consumers over loopback HTTP against the package's mock server (a real
// `node:http` server on 127.0.0.1 in its own process, lib/watch-server.mjs; unlike bench/watchers.mjs, whose client
// talks to the mock in process). The payments are created first, then watched while the mock completes them at
// spread-out times over two poll intervals. Reports the client's CPU per status poll and status polls per
// core-second (the client process alone), and counts the TCP connections it opened (diagnostics channel
// `net.client.socket`) and the most open at once: with the default wire they stay within `maxSockets`, where global
// fetch opened one per concurrent poll.
//
//   node bench/watchers-loopback.mjs [--watchers=10000] [--maxSockets=32] [--json]
import { spawn } from "node:child_process";
import { subscribe } from "node:diagnostics_channel";
import { createInterface } from "node:readline";
import { DIST, fmt, isMain, parseArgs, ROOT, requireDist, table } from "./lib/common.mjs";

const POLL_IN_MS = 500;

/** The mock in its own process, with `payments` payments made; `go()` starts completing them. */
function startWatchServer(payments) {
  const script = new URL("./lib/watch-server.mjs", import.meta.url).pathname;
  const child = spawn(process.execPath, [script, `--payments=${payments}`, `--pollInMs=${POLL_IN_MS}`], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const next = () =>
    new Promise((resolve, reject) => {
      lines.once("line", (line) => resolve(JSON.parse(line)));
      child.once("exit", (code) => reject(new Error(`watch-server exited with ${code}`)));
    });
  return next().then((info) => ({
    ...info,
    go: () => child.stdin.write("go\n"),
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  }));
}

export async function measure({ watchers = 10_000, maxSockets = 32, log = () => {} } = {}) {
  requireDist();
  const { MerchantPaymentsClient } = await import(DIST);
  const server = await startWatchServer(watchers);
  log(`watchers-loopback: ${server.ids.length} payments created`);
  let socketsOpened = 0;
  let open = 0;
  let mostOpen = 0;
  subscribe("net.client.socket", ({ socket }) => {
    socketsOpened++;
    mostOpen = Math.max(mostOpen, ++open);
    socket.once("close", () => open--);
  });
  try {
    const client = new MerchantPaymentsClient({
      apiKey: server.apiKey,
      baseUrl: server.url,
      merchantId: server.merchantId,
      maxSockets,
      timeoutMs: 60_000,
    });
    const start = performance.now();
    const cpu = process.cpuUsage();
    server.go();
    let polls = 0;
    let finals = 0;
    await Promise.all(
      server.ids.map(async (id) => {
        for await (const status of client.payments.watch(id, { minIntervalMs: 0 })) {
          polls++;
          if (status.isFinal && status.status === "succeeded") finals++;
        }
      }),
    );
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    return {
      watchers,
      maxSockets,
      finals,
      polls,
      socketsOpened,
      mostOpen,
      wallMs: performance.now() - start,
      cpuMsPerPoll: (cpuSeconds * 1000) / polls,
      pollsPerCoreSecond: polls / cpuSeconds,
    };
  } finally {
    await server.stop();
  }
}

export function render(r) {
  return table(
    [
      "watchers",
      "reached final",
      "polls",
      "sockets opened",
      "most open at once",
      "maxSockets",
      "wall",
      "client CPU / poll",
      "polls / core-second",
    ],
    [
      [
        fmt.int(r.watchers),
        fmt.int(r.finals),
        fmt.int(r.polls),
        fmt.int(r.socketsOpened),
        fmt.int(r.mostOpen),
        r.maxSockets,
        fmt.ms(r.wallMs),
        `${(r.cpuMsPerPoll * 1000).toFixed(0)} µs`,
        fmt.int(r.pollsPerCoreSecond),
      ],
    ],
  );
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  const result = await measure({
    watchers: Number(args.watchers ?? 10_000),
    maxSockets: Number(args.maxSockets ?? 32),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : `${render(result)}\n`);
}
