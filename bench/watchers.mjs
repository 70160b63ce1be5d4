// 10,000 concurrent `payments.watch()` consumers against the in-process mock (the client's `fetch` option is
// the mock's fetch: no sockets, so this measures the SDK's own timers, listeners and memory). Payments complete at
// spread-out times. Reports wall time, peak heap (garbage included: heapUsed sampled every 10 ms), and the heap
// left once everything ended, the mock was reset and the GC ran, against the same measure before; plus the
// timers/handles left behind.
//
// What the budget check enforces is counted, so that it cannot fail by chance: timers and handles left, abort listeners
// left on the one shutdown signal all watchers share, and watchers (their iterators and final statuses, held weakly)
// still reachable once they ended and the GC ran. The heap figure is reported only: it moves by a couple of MB from
// run to run (CI once saw 208.7 B/watcher against a budget of 100) without any leak.
//
// The first pass at full size grows some structures once (V8 tables, pools sized to the peak), and the heap it leaves
// after GC varies from run to run by a couple of MB either way: not a leak. So two passes run first (warm-up, then the
// baseline), the heap is settled (GC'd) after every pass alike, and the heap left is measured over a third, identical
// pass. A leak of even one small object per watcher would show there as hundreds of bytes per watcher.
//
//   node --expose-gc bench/watchers.mjs [--watchers=10000] [--pollInMs=500] [--counts-only] [--json]
import { getEventListeners } from "node:events";
import { DIST, DIST_TESTING, fmt, isMain, parseArgs, requireDist, table } from "./lib/common.mjs";

async function settledHeap() {
  if (!globalThis.gc) throw new Error("run with node --expose-gc");
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    globalThis.gc();
  }
  return process.memoryUsage().heapUsed;
}

function resources() {
  const counts = {};
  for (const name of process.getActiveResourcesInfo()) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

/** Weak references to what each watcher made; counted once the GC ran, a reachable one is a leak. */
function reachable(refs) {
  let count = 0;
  for (const ref of refs) if (ref.deref() !== undefined) count++;
  return count;
}

async function run(client, service, n, pollInMs, onSample, { signal, refs } = {}) {
  const ids = [];
  for (let i = 0; i < n; i += 500) {
    const batch = Array.from({ length: Math.min(500, n - i) }, (_, k) =>
      client.payments.create({
        referenceId: `order-${i + k}`,
        amount: { unit: "iso4217/USD", value: "1999" },
      }),
    );
    for (const created of await Promise.all(batch)) ids.push(created.id);
  }
  const start = performance.now();
  const sampler = setInterval(onSample, 10);
  const timers = ids.map((id, i) =>
    setTimeout(() => service.completePayment(id), Math.round((i / n) * 2 * pollInMs)),
  );
  let updates = 0;
  let finals = 0;
  await Promise.all(
    ids.map(async (id) => {
      const watcher = client.payments.watch(id, { minIntervalMs: 0, signal });
      refs?.push(new WeakRef(watcher));
      for await (const status of watcher) {
        updates++;
        if (status.isFinal) refs?.push(new WeakRef(status));
        if (status.isFinal && status.status !== "succeeded") throw new Error(`${id} ended ${status.status}`);
        if (status.isFinal) finals++;
      }
    }),
  );
  if (finals !== n) throw new Error(`only ${finals} of ${n} watched payments reached their final status`);
  const wallMs = performance.now() - start;
  clearInterval(sampler);
  for (const timer of timers) clearTimeout(timer);
  return { wallMs, updates };
}

/** `countsOnly`: one pass, no heap figure (the counts need no warm-up; the heap left does). */
export async function measure({
  watchers = 10_000,
  pollInMs = 500,
  countsOnly = false,
  log = () => {},
} = {}) {
  requireDist();
  const { MerchantPaymentsClient } = await import(DIST);
  const { createMockService } = await import(DIST_TESTING);
  const service = createMockService({ pollInMs, requestLogLimit: 100 });
  const client = new MerchantPaymentsClient({
    apiKey: service.keys.test,
    baseUrl: service.baseUrl,
    merchantId: service.merchantId,
    fetch: service.fetch,
  });
  // Warm-up pass at full size (JIT, lazily built schemas, one-time growth), then the baseline pass; the heap is
  // settled after each, as after the measured pass, so that every pass starts from the same state.
  let heapBefore = await settledHeap();
  for (const pass of countsOnly ? [] : ["warm-up", "baseline"]) {
    const { wallMs: passMs } = await run(client, service, watchers, pollInMs, () => {});
    log(`watchers ${pass} pass: ${Math.round(passMs)} ms`);
    service.reset();
    heapBefore = await settledHeap();
  }
  // The process's own stdout and stderr become handles when first touched (a pipe in CI): open them before the
  // baseline, so that only what the watchers leave behind is counted.
  for (const stream of [process.stdout, process.stderr]) stream.write("");
  const resourcesBefore = resources();
  let peakHeap = process.memoryUsage().heapUsed;
  const shutdown = new AbortController(); // a worker's shutdown signal, shared by every watcher
  let peakAbortListeners = 0;
  const refs = [];
  const { wallMs, updates } = await run(
    client,
    service,
    watchers,
    pollInMs,
    () => {
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      peakAbortListeners = Math.max(peakAbortListeners, getEventListeners(shutdown.signal, "abort").length);
    },
    { signal: shutdown.signal, refs },
  );
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  service.reset();
  const heapAfter = await settledHeap();
  const watchersReachable = reachable(refs);
  const resourcesAfter = resources();
  const leftResources = {};
  for (const [name, count] of Object.entries(resourcesAfter)) {
    const extra = count - (resourcesBefore[name] ?? 0);
    if (extra > 0) leftResources[name] = extra;
  }
  return {
    watchers,
    pollInMs,
    updates,
    wallMs,
    heapBefore,
    peakHeap,
    heapAfter,
    heapLeftBytes: countsOnly ? undefined : heapAfter - heapBefore,
    leftResources,
    abortListenersLeft: getEventListeners(shutdown.signal, "abort").length,
    peakAbortListeners,
    tracked: refs.length,
    watchersReachable,
  };
}

export function render(r) {
  const left = Object.entries(r.leftResources).map(([k, v]) => `${k}: ${v}`);
  return table(
    [
      "watchers",
      "wall",
      "peak heap",
      "heap before → after (GC'd)",
      "left behind",
      "timers/handles left",
      "abort listeners (peak → left)",
      "still reachable after GC",
    ],
    [
      [
        fmt.int(r.watchers),
        fmt.ms(r.wallMs),
        fmt.mb(r.peakHeap),
        `${fmt.mb(r.heapBefore)} → ${fmt.mb(r.heapAfter)}`,
        r.heapLeftBytes === undefined
          ? "not measured (--counts-only)"
          : `${(r.heapLeftBytes / 1024).toFixed(0)} KiB (${(r.heapLeftBytes / r.watchers).toFixed(1)} B/watcher)`,
        left.length === 0 ? "none" : left.join(", "),
        `${r.peakAbortListeners} → ${r.abortListenersLeft}`,
        `${r.watchersReachable} of ${r.tracked}`,
      ],
    ],
  );
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  const result = await measure({
    watchers: Number(args.watchers ?? 10_000),
    pollInMs: Number(args.pollInMs ?? 500),
    countsOnly: Boolean(args["counts-only"]),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : `${render(result)}\n`);
}
