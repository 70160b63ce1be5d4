// Settlement workers on one PostgreSQL server (docs/workers.md): 10,000 pending payments on the mock server, their
// outcomes scripted over about a minute (90% succeed, 10% fail, at times spread evenly), settled by one worker
// process, then by four, then by four of which one is SIGKILLed mid-run. Reports the status calls the mock
// answered, payments settled per second, the lag from each payment's success to its order's fulfilment (p50, p95),
// the peak RSS of each worker (VmHWM), double fulfilments, payments left unsettled and the machine's idle share for each
// 10 s of the run.
//
// Not a test: it reads the wall clock, and its figures depend on the machine (a shared 2-core one here): it ends with
// the status calls per second one client gets from the mock on this machine at that moment, for scale.
//
//   node --import tsx bench/workers-settle.mjs [--payments=10000] [--spreadMs=60000] [--pollInMs=10000] [--leaseSeconds=10] [--watchMs=…]
//   [--runs=1,4,4k] [--trace] [--probe]
//   --trace: status calls per 5 s, each payment's first call and the gaps between its calls;
//   --probe: each worker's call times and event-loop delay every 5 s, on stderr (bench/lib/worker-probe.mjs).
//
// The server comes from scripts/postgres.sh (DATABASE_URL when set, else started and stopped here).
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MerchantPaymentsClient } from "../src/index.ts";
import { startMockServer } from "../src/testing/index.ts";
import { openOrders } from "../examples/shared/orders.ts";
import { openDatabase } from "../examples/shared/sql.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((arg) => arg.replace(/^--/, "").split("="))
    .map(([k, v]) => [k, v ?? "true"]),
);
const PAYMENTS = Number(args.payments ?? 10_000);
const SPREAD_MS = Number(args.spreadMs ?? 60_000);
const POLL_MS = Number(args.pollInMs ?? 10_000);
const RUNS = (args.runs ?? "1,4,4k").split(",");
// The shortest lease pg-boss allows (10 s without a heartbeat): the SIGKILL run's takeover is what it bounds.
const LEASE_SECONDS = Number(args.leaseSeconds ?? 10);
// A watch runs until its payment is final (the worker's default, 40 minutes, is longer than any run here).
const WATCH_MS = args.watchMs;

const postgres = (command) =>
  execFileSync("bash", [`${root}scripts/postgres.sh`, command], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();

async function freshDatabase(adminUrl) {
  const name = `bench_${randomUUID().replaceAll("-", "")}`;
  const admin = await openDatabase({ url: adminUrl, dataDir: "" });
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: () => admin.query(`DROP DATABASE ${name} WITH (FORCE)`).finally(() => admin.close()),
  };
}

/** The orders and their payments: created in the mock in process, stored in bulk, each with its watch enqueued. */
async function seed(mock, orders) {
  const { keys, merchantId } = mock.service;
  const client = new MerchantPaymentsClient({
    apiKey: keys.test,
    baseUrl: mock.url,
    merchantId,
    fetch: mock.service.fetch,
  });
  const rows = [];
  for (let i = 0; i < PAYMENTS; i++) {
    const id = `ord_${randomUUID()}`;
    const { paymentId, gatewayUrl } = await client.checkout.create({
      referenceId: id,
      amount: { unit: "iso4217/USD", value: "1250" },
      successUrl: `https://shop.example/orders/${id}/success`,
      errorUrl: `https://shop.example/orders/${id}/error`,
    });
    rows.push({ id, paymentId, gatewayUrl });
  }
  await orders.db.query(
    `INSERT INTO orders (id, amount, currency, idempotency_key, payment_id, gateway_url)
     SELECT id, '12.50', 'USD', gen_random_uuid()::text, pid, url FROM unnest($1::text[], $2::text[], $3::text[]) AS t(id, pid, url)`,
    [rows.map((r) => r.id), rows.map((r) => r.paymentId), rows.map((r) => r.gatewayUrl)],
  );
  await orders.watches.enqueueAll(rows.map((r) => ({ orderId: r.id, paymentId: r.paymentId })));
  // A bulk load into a database created a moment ago: give the planner its statistics now, as PostgreSQL's
  // "Populating a Database" advises, instead of after autovacuum's first pass a minute into the run. Without them
  // pg-boss's `complete` scans every active job by (name, state) instead of its primary key: 5.8 ms instead of
  // 0.7 ms per call, 85 s of the server's CPU in a 75 s run (pg_stat_statements).
  await orders.db.query("ANALYZE");
  return rows;
}

function startWorkers(n, mock, url) {
  const { keys, merchantId } = mock.service;
  return Array.from({ length: n }, (_, i) => {
    const probe = args.probe ? ["--import", `${root}bench/lib/worker-probe.mjs`] : [];
    const child = spawn(process.execPath, [...probe, "--import", "tsx", `${root}examples/worker.ts`], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
      env: {
        ...process.env,
        MERCHANT_PAYMENTS_API_KEY: keys.test,
        MERCHANT_PAYMENTS_BASE_URL: mock.url,
        MERCHANT_PAYMENTS_MERCHANT_ID: merchantId,
        DATABASE_URL: url,
        WORKER_NAME: `w${i + 1}`,
        // Room for every payment in one worker, and for a dead worker's share in the other three.
        WORKER_CAPACITY: String(n === 1 ? PAYMENTS : Math.ceil(PAYMENTS / (n - 1))),
        LEASE_SECONDS: String(LEASE_SECONDS),
        ...(WATCH_MS ? { WATCH_MS } : {}),
      },
    });
    let shipped = 0;
    let claimsLost = 0;
    let tail = "";
    let markReady;
    const ready = new Promise((resolve) => (markReady = resolve));
    child.stdout.on("data", (chunk) => {
      const text = tail + chunk.toString();
      const lines = text.split("\n");
      tail = lines.pop() ?? "";
      for (const line of lines) {
        if (line.endsWith(": fulfilled")) shipped++;
        else if (line.endsWith(": lost")) claimsLost++;
        else if (line.includes(": watching")) markReady();
      }
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const peakRss = () => {
      try {
        return (
          Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) * 1024
        );
      } catch {
        return 0;
      }
    };
    return { child, exited, ready, peakRss, shipped: () => shipped, claimsLost: () => claimsLost, rss: 0 };
  });
}

/**
 * The machine's idle share (all cores, from /proc/stat) for each 10 s from now until the returned function is called:
 * whether a slow run was the workers' design or a machine with no CPU left. Empty where /proc/stat does not exist.
 */
function idleByWindow() {
  const read = () => {
    try {
      const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
      // user nice system idle iowait irq softirq steal: idle and iowait are time nothing ran.
      return { idle: ticks[3] + ticks[4], total: ticks.slice(0, 8).reduce((a, b) => a + b, 0) };
    } catch {
      return undefined;
    }
  };
  const shares = [];
  let last = read();
  const timer = setInterval(() => {
    const now = read();
    if (last && now)
      shares.push(`${Math.round((100 * (now.idle - last.idle)) / (now.total - last.total || 1))}%`);
    last = now;
  }, 10_000);
  return () => {
    clearInterval(timer);
    return shares.join(" ");
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/**
 * Plays the script: payment i reaches its outcome at an even spread over SPREAD_MS, from 5 s in; with `killOne`,
 * the first worker is SIGKILLed halfway. Returns once every order is settled (or a bound passed).
 */
async function playScript(rows, mock, orders, workers, killOne) {
  const start = Date.now();
  const successAt = new Map();
  const script = rows.map((row, i) => ({
    ...row,
    at: 5000 + (i * SPREAD_MS) / rows.length,
    fail: i % 10 === 9,
  }));
  let next = 0;
  for (let tick = 0; tick < 36_000; tick++) {
    const now = Date.now() - start;
    while (next < script.length && script[next].at <= now) {
      const { paymentId, fail } = script[next++];
      if (fail) mock.service.failPayment(paymentId);
      else {
        mock.service.completePayment(paymentId);
        successAt.set(paymentId, Date.now());
      }
    }
    if (killOne && !workers[0].rss && now >= 5000 + SPREAD_MS / 2) {
      workers[0].rss = workers[0].peakRss();
      workers[0].child.kill("SIGKILL");
    }
    if (next === script.length && tick % 20 === 0) {
      const {
        rows: [left],
      } = await orders.db.query("SELECT count(*)::int AS n FROM orders WHERE state = 'awaiting_payment'");
      if (left.n === 0) break;
      if (now > SPREAD_MS + 5000 + 4 * LEASE_SECONDS * 1000) break; // bounded: report what is left
    }
    await sleep(50);
  }
  const elapsed = (Date.now() - start) / 1000;
  return { successAt, elapsed, drainSeconds: elapsed - script.at(-1).at / 1000 };
}

/**
 * `--trace`: the status calls per 5 s, when each payment was first asked for (after the first call of all) and the
 * gaps between a payment's calls: is a long lag a slow start or slow polling?
 */
function traceCalls(statusRequests) {
  const t0 = statusRequests[0]?.time ?? 0;
  const perWindow = Map.groupBy(statusRequests, (r) => Math.floor((r.time - t0) / 5000));
  const windows = Array.from(
    { length: Math.max(0, ...perWindow.keys()) + 1 },
    (_, i) => perWindow.get(i)?.length ?? 0,
  );
  console.error(`status calls per 5 s: ${windows.join(" ")}`);
  const times = [...Map.groupBy(statusRequests, (r) => r.path).values()].map((calls) =>
    calls.map((r) => r.time),
  );
  const sorted = (xs) => xs.sort((a, b) => a - b);
  const firsts = sorted(times.map((t) => (t[0] - t0) / 1000));
  const gaps = sorted(times.flatMap((t) => t.slice(1).map((x, i) => (x - t[i]) / 1000)));
  const q = (xs) => [50, 90, 99].map((p) => percentile(xs, p).toFixed(1)).join(" / ");
  console.error(
    `first call after the first (s) p50/p90/p99: ${q(firsts)}; gap between calls (s): ${q(gaps)}`,
  );
}

/** What the database and the mock say once the workers stopped. */
async function measure(orders, mock, workers, successAt) {
  const statusRequests = mock.service.requests.filter((r) => r.path.endsWith("/status"));
  const statusCalls = statusRequests.length;
  if (args.trace) traceCalls(statusRequests);
  const { rows: fulfilled } = await orders.db.query(
    "SELECT payment_id AS \"paymentId\", extract(epoch FROM fulfilled_at) * 1000 AS at FROM orders WHERE state = 'fulfilled'",
  );
  const pairs = fulfilled
    .map((r) => ({
      success: successAt.get(r.paymentId) ?? NaN,
      lag: Number(r.at) - (successAt.get(r.paymentId) ?? NaN),
    }))
    .filter((p) => Number.isFinite(p.lag));
  const lags = pairs.map((p) => p.lag).sort((a, b) => a - b);
  // The p95 lag of the payments that succeeded in each 10 s of the script: is the lag the start or the whole run?
  const first = Math.min(...pairs.map((p) => p.success));
  const byWindow = [];
  for (const p of pairs) (byWindow[Math.floor((p.success - first) / 10_000)] ??= []).push(p.lag);
  const p95ByWindow = byWindow
    .map((w) =>
      (
        percentile(
          w.sort((a, b) => a - b),
          95,
        ) / 1000
      ).toFixed(1),
    )
    .join(" ");
  const {
    rows: [counts],
  } = await orders.db.query(
    `SELECT (SELECT count(*)::int FROM orders WHERE state = 'awaiting_payment') AS lost,
            (SELECT count(*)::int FROM fulfilments) AS fulfilments,
            (SELECT count(DISTINCT order_id)::int FROM fulfilments) AS distinct_orders`,
  );
  // A second fulfilment would be a second row (refused by the primary key) or a second "fulfilled" line.
  const shipped = workers.reduce((sum, w) => sum + w.shipped(), 0);
  return {
    statusCalls,
    p50LagMs: Math.round(percentile(lags, 50)),
    p95LagMs: Math.round(percentile(lags, 95)),
    p95LagSecondsBy10s: p95ByWindow,
    peakRssMiB: workers.map((w) => (w.rss / 2 ** 20).toFixed(0)).join(" / "),
    claimsLost: workers.reduce((sum, w) => sum + w.claimsLost(), 0),
    doubleFulfilments:
      counts.fulfilments - counts.distinct_orders + Math.max(0, shipped - counts.fulfilments),
    expectedFulfilments: successAt.size,
    fulfilments: counts.fulfilments,
    lost: counts.lost,
  };
}

async function run(label, adminUrl) {
  const n = Number.parseInt(label, 10);
  const killOne = label.endsWith("k");
  const database = await freshDatabase(adminUrl);
  const mock = await startMockServer({
    pollInMs: POLL_MS,
    requestLogLimit: 2_000_000,
    requestLogMaxBytes: 2 ** 31,
  });
  const orders = await openOrders({ url: database.url, watches: { leaseSeconds: LEASE_SECONDS } });
  try {
    const rows = await seed(mock, orders);
    mock.service.clearRequests();
    const workers = startWorkers(n, mock, database.url);
    // The clock starts once every worker runs (their start is not what is measured).
    await Promise.race([Promise.all(workers.map((w) => w.ready)), sleep(120_000)]);
    const idle = idleByWindow();
    const { successAt, elapsed, drainSeconds } = await playScript(rows, mock, orders, workers, killOne);
    const idleBy10s = idle();
    for (const worker of workers) if (!worker.rss) worker.rss = worker.peakRss();
    for (const worker of workers) worker.child.kill("SIGTERM");
    await Promise.all(workers.map((w) => w.exited));
    return {
      label: killOne ? `${n} workers, one SIGKILLed` : `${n} worker${n > 1 ? "s" : ""}`,
      settledPerSecond: Math.round(PAYMENTS / elapsed),
      elapsed,
      drainSeconds,
      idleBy10s,
      ...(await measure(orders, mock, workers, successAt)),
    };
  } finally {
    await orders.close();
    await mock.close();
    await database.drop();
  }
}

/**
 * What this machine gives right now: status calls per second of one client (32 at a time) to the mock server, both
 * in this process, for 5 s. On a shared machine it says how much of the figures above is the machine.
 */
async function calibrate() {
  const mock = await startMockServer({ pollInMs: POLL_MS });
  const { keys, merchantId } = mock.service;
  const client = new MerchantPaymentsClient({ apiKey: keys.test, baseUrl: mock.url, merchantId });
  const { paymentId } = await client.checkout.create({
    referenceId: "calibration",
    amount: { unit: "iso4217/USD", value: "100" },
    successUrl: "https://shop.example/ok",
    errorUrl: "https://shop.example/error",
  });
  const start = Date.now();
  let calls = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (Date.now() - start < 5000) {
        await client.checkout.status(paymentId);
        calls++;
      }
    }),
  );
  await mock.close();
  return Math.round((calls * 1000) / (Date.now() - start));
}

const given = process.env.DATABASE_URL;
const adminUrl = given ?? postgres("start");
try {
  const results = [];
  for (const label of RUNS) {
    const result = await run(label, adminUrl);
    console.log(JSON.stringify(result));
    results.push(result);
  }
  const [load1] = (await import("node:os")).loadavg();
  const rate = await calibrate();
  console.log(
    `\nmachine now: ${rate} status calls/s (one client, 32 at a time, mock in process), load average ${load1.toFixed(1)}`,
  );
  console.log(
    `${PAYMENTS} payments, outcomes over ${SPREAD_MS / 1000} s, pollInMs ${POLL_MS}, lease ${LEASE_SECONDS} s, watch ${WATCH_MS ? `${WATCH_MS / 1000} s` : "until final"}`,
  );
  for (const r of results) {
    console.log(
      `${r.label}: ${r.statusCalls} status calls (${(r.statusCalls / results[0].statusCalls).toFixed(2)}x), ` +
        `${r.settledPerSecond}/s over ${r.elapsed.toFixed(0)} s (all settled ${r.drainSeconds.toFixed(1)} s after the last outcome), lag p50 ${r.p50LagMs} ms p95 ${r.p95LagMs} ms, ` +
        `peak RSS ${r.peakRssMiB} MiB, fulfilled ${r.fulfilments}/${r.expectedFulfilments}, double ${r.doubleFulfilments}, lost ${r.lost}; ` +
        `by 10 s: lag p95 ${r.p95LagSecondsBy10s} s, machine idle ${r.idleBy10s || "(unknown)"}`,
    );
  }
} finally {
  if (!given) postgres("stop");
}
