// Loaded into each worker process by `bench/workers-settle.mjs --probe` (`node --import`): every 5 s it prints to
// stderr how long the worker's HTTP calls took from the start Node reports (once the call has one of the agent's
// sockets: `open` never exceeds `maxSockets`) to the answer's end, how many were still open, and the worker's
// event-loop delay. It asks Node's own diagnostics channels (`http.client.request.start`,
// `http.client.response.finish`), so the worker's code is the one merchants run, unchanged. Beside the SDK's
// `onResponse` `durationMs` (which counts the wait for a socket too) it says where a call waits: for a socket, for
// the answer, or in a slow event loop.
import { subscribe } from "node:diagnostics_channel";
import { monitorEventLoopDelay } from "node:perf_hooks";

const started = new WeakMap();
let open = 0;
let durations = [];
subscribe("http.client.request.start", ({ request }) => {
  started.set(request, performance.now());
  open++;
});
subscribe("http.client.response.finish", ({ request }) => {
  const at = started.get(request);
  if (at === undefined) return;
  started.delete(request);
  open--;
  durations.push(performance.now() - at);
});
// A request that ends without an answer (aborted, reset) is no longer open either.
subscribe("http.client.request.error", ({ request }) => {
  if (started.delete(request)) open--;
});

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const name = process.env.WORKER_NAME ?? `worker-${process.pid}`;
const t0 = performance.now();
setInterval(() => {
  const sorted = durations.sort((a, b) => a - b);
  durations = [];
  const at = (p) => (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0).toFixed(0);
  const ms = (ns) => (ns / 1e6).toFixed(0);
  console.error(
    `probe ${name} t=${((performance.now() - t0) / 1000).toFixed(0)}s calls=${sorted.length} open=${open} ` +
      `call ms p50/p90/p99 ${at(0.5)}/${at(0.9)}/${at(0.99)} event-loop delay ms p99/max ${ms(loop.percentile(99))}/${ms(loop.max)}`,
  );
  loop.reset();
}, 5000).unref();
