// 5,000 concurrent `payments.watch()` consumers over loopback HTTP against the package's mock server (a real
// `node:http` server on 127.0.0.1, unlike bench/watchers.mjs, whose client talks to the mock in process). The
// payments are created first, then watched while the mock completes them at spread-out times over two poll
// intervals. Counts the TCP connections the client opened (diagnostics channel `net.client.socket`, which the
// server's accepted sockets do not publish to) and the most open at once: with the default wire they stay within
// `maxSockets`, where global fetch opened one per concurrent poll. Server and client share the process, so the
// CPU figure is the two together.
//
//   node bench/watchers-loopback.mjs [--watchers=5000] [--maxSockets=32] [--json]
import { subscribe } from "node:diagnostics_channel";
import { DIST, DIST_TESTING, fmt, isMain, parseArgs, requireDist, table } from "./lib/common.mjs";

const POLL_IN_MS = 500;

export async function measure({ watchers = 5000, maxSockets = 32, log = () => {} } = {}) {
  requireDist();
  const { MerchantPaymentsClient } = await import(DIST);
  const { startMockServer } = await import(DIST_TESTING);
  const server = await startMockServer({ pollInMs: POLL_IN_MS, requestLogLimit: 100 });
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
      apiKey: server.service.keys.test,
      baseUrl: server.url,
      merchantId: server.service.merchantId,
      maxSockets,
      timeoutMs: 60_000,
    });
    const ids = [];
    for (let i = 0; i < watchers; i += 500) {
      const batch = Array.from({ length: Math.min(500, watchers - i) }, (_, k) =>
        client.payments.create({
          referenceId: `order-${i + k}`,
          amount: { unit: "iso4217/USD", value: "1999" },
        }),
      );
      for (const created of await Promise.all(batch)) ids.push(created.id);
    }
    log(`watchers-loopback: ${ids.length} payments created`);
    const start = performance.now();
    const cpu = process.cpuUsage();
    const completions = ids.map((id, i) =>
      setTimeout(() => server.service.completePayment(id), Math.round((i / watchers) * 2 * POLL_IN_MS)),
    );
    let polls = 0;
    let finals = 0;
    await Promise.all(
      ids.map(async (id) => {
        for await (const status of client.payments.watch(id, { minIntervalMs: 0 })) {
          polls++;
          if (status.isFinal && status.status === "succeeded") finals++;
        }
      }),
    );
    const used = process.cpuUsage(cpu);
    for (const timer of completions) clearTimeout(timer);
    return {
      watchers,
      maxSockets,
      finals,
      polls,
      socketsOpened,
      mostOpen,
      wallMs: performance.now() - start,
      cpuMsPerPoll: (used.user + used.system) / 1000 / polls,
    };
  } finally {
    await server.close();
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
      "CPU / poll (client + server)",
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
      ],
    ],
  );
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  const result = await measure({
    watchers: Number(args.watchers ?? 5000),
    maxSockets: Number(args.maxSockets ?? 32),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : `${render(result)}\n`);
}
