/**
 * What the settlement workers' tests share: a shop on a fresh database of the real PostgreSQL server, the mock
 * service on 127.0.0.1, worker processes (`examples/worker.ts` under tsx) and the mock's request log read as "who
 * watched which payment when".
 */
import { type ChildProcess, spawn } from "node:child_process";
import { MerchantPaymentsClient } from "merchant-payments";
import { type MockServer, startMockServer } from "merchant-payments/testing";
import { inject } from "vitest";
import { placeOrder } from "../../examples/shared/checkout-flow.js";
import { type Order, type Orders, openOrders } from "../../examples/shared/orders.js";
import type { WatchQueueOptions } from "../../examples/shared/watch-queue.js";
import { freshDatabase } from "./worker-postgres.js";

/** The header each worker names its watch in: `<worker>/<job id>/<attempt>`. */
export const TRACE_HEADER = "x-watch";
const STATUS_PATH = /^\/v1\/merchant\/payment\/([^/]+)\/status$/;

/** A shop (its orders and queue), the mock it pays through, and how to tear both down. */
export interface Shop {
  mock: MockServer;
  client: MerchantPaymentsClient;
  orders: Orders;
  databaseUrl: string;
  close(): Promise<void>;
}

/** A shop whose queue has this lease (seconds without a heartbeat, at least 10) and these other settings. */
export async function openShop(
  leaseSeconds: number,
  queue: Omit<WatchQueueOptions, "leaseSeconds"> = {},
): Promise<Shop> {
  const database = await freshDatabase(inject("databaseUrl"));
  const mock = await startMockServer({
    pollInMs: 50,
    requestLogLimit: 1_000_000,
    requestLogMaxBytes: 1 << 29,
  });
  const { keys, merchantId } = mock.service;
  const client = new MerchantPaymentsClient({ apiKey: keys.test, baseUrl: mock.url, merchantId });
  const orders = await openOrders({ url: database.url, watches: { ...queue, leaseSeconds } });
  return {
    mock,
    client,
    orders,
    databaseUrl: database.url,
    async close() {
      await orders.close();
      await mock.close();
      await database.drop();
    },
  };
}

/** `n` orders whose checkout is created (and so whose watch is enqueued), in order. */
export async function placeOrders(shop: Shop, n: number): Promise<Order[]> {
  const placed: Order[] = [];
  for (let i = 0; i < n; i++) {
    const { order } = await placeOrder(
      shop.client,
      shop.orders,
      { amount: "12.50", currency: "USD" },
      (o) => ({
        successUrl: `https://shop.example/orders/${o.id}/success`,
        errorUrl: `https://shop.example/orders/${o.id}/error`,
      }),
    );
    placed.push((await shop.orders.get(order.id)) ?? order);
  }
  return placed;
}

/** A worker process: `examples/worker.ts` on the shop's database and the mock. */
export interface WorkerProcess {
  name: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

export async function startWorker(
  shop: Shop,
  name: string,
  env: Record<string, string>,
): Promise<WorkerProcess> {
  const { keys, merchantId } = shop.mock.service;
  // Node itself with tsx's loader, not the tsx launcher: a SIGKILL must reach the worker, not a parent of it.
  const child = spawn(process.execPath, ["--import", "tsx", "examples/worker.ts"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      MERCHANT_PAYMENTS_API_KEY: keys.test,
      MERCHANT_PAYMENTS_BASE_URL: shop.mock.url,
      MERCHANT_PAYMENTS_MERCHANT_ID: merchantId,
      DATABASE_URL: shop.databaseUrl,
      WORKER_NAME: name,
      TRACE_HEADER,
      ...env,
    },
  });
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => void (out += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => void (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const worker = { name, child, output: () => out, exited };
  await until(
    () => out.includes(`${name}: watching`),
    `${name} started`,
    () => out,
  );
  return worker;
}

/** Stops a worker with SIGTERM and waits for it to exit (bounded). */
export async function stopWorker(worker: WorkerProcess): Promise<number | null> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return worker.child.exitCode;
  worker.child.kill("SIGTERM");
  return bounded(worker.exited, `${worker.name} to exit on SIGTERM`, worker.output);
}

/**
 * Waits until `check` holds, asking every 50 ms at most 1,200 times: a bound on the loop, not a timing assertion
 * (a slow machine only makes it ask later).
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  detail = () => "",
): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}\n${detail()}`);
}

async function bounded<T>(promise: Promise<T>, what: string, detail: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what}\n${detail()}`)), 60_000);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** One watch as the mock saw it: its status calls for one payment under one trace tag. */
export interface Watch {
  paymentId: string;
  worker: string;
  job: string;
  attempt: number;
  calls: number;
}

/**
 * The watches in the mock's request log, in the order their first status call came, and the payments watched
 * twice at once: a payment whose calls under one tag were interrupted by another tag's and then went on (the
 * mock answers one request at a time, so its log is the true order of the calls).
 */
export function watchesOf(mock: MockServer): { watches: Watch[]; overlapping: string[] } {
  const watches = new Map<string, Watch>();
  const last = new Map<string, string>();
  const overlapping = new Set<string>();
  for (const request of mock.service.requests) {
    const paymentId = STATUS_PATH.exec(request.path)?.[1];
    const tag = request.headers[TRACE_HEADER];
    if (!paymentId || !tag) continue;
    const key = `${paymentId} ${tag}`;
    const watch = watches.get(key);
    if (watch && last.get(paymentId) !== tag) overlapping.add(paymentId);
    last.set(paymentId, tag);
    if (watch) {
      watch.calls++;
      continue;
    }
    const [worker = "", job = "", attempt = "0"] = tag.split("/");
    watches.set(key, { paymentId, worker, job, attempt: Number(attempt), calls: 1 });
  }
  return { watches: [...watches.values()], overlapping: [...overlapping] };
}

/** Orders and their fulfilments, as the database holds them. */
export async function fulfilments(orders: Orders): Promise<{ fulfilled: number; rows: number }> {
  const { rows } = await orders.db.query<{ fulfilled: number; rows: number }>(
    `SELECT (SELECT count(*)::int FROM orders WHERE state = 'fulfilled') AS fulfilled,
            (SELECT count(*)::int FROM fulfilments) AS rows`,
  );
  return rows[0] ?? { fulfilled: 0, rows: 0 };
}

/** The jobs of the payment-watch queue by state, from pg-boss's documented job table. */
export async function jobStates(orders: Orders): Promise<Record<string, number>> {
  const { rows } = await orders.db.query<{ state: string; n: number }>(
    "SELECT state::text, count(*)::int AS n FROM pgboss.job WHERE name = 'payment-watch' GROUP BY state",
  );
  return Object.fromEntries(rows.map((row) => [row.state, row.n]));
}

/** The queued and active watch jobs (one per pending payment, if none is lost), from pg-boss's job table. */
export async function liveJobs(
  orders: Orders,
): Promise<Array<{ id: string; orderId: string; attempt: number; state: string }>> {
  const { rows } = await orders.db.query<{ id: string; orderId: string; attempt: number; state: string }>(
    `SELECT id::text, data->>'orderId' AS "orderId", retry_count AS attempt, state::text
       FROM pgboss.job WHERE name = 'payment-watch' AND state IN ('created', 'retry', 'active')`,
  );
  return rows;
}
