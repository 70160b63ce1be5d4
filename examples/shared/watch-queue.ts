/**
 * The payment-watch queue: one job per order whose payment is still pending, in the shop's own PostgreSQL
 * database, on pg-boss (why pg-boss and not graphile-worker: `docs/workers.md`). The shop enqueues a watch in the
 * same transaction that records the order's checkout (`Orders.recordCheckout`); the settlement workers
 * (`examples/worker/watch-worker.ts`) take the jobs and poll the payments.
 *
 * - One job per order at a time: the queue's `exclusive` policy with the order id as `singletonKey` (a unique
 *   index over queued and active jobs), so a payment is never watched by two workers at once and enqueueing twice
 *   is a no-op.
 * - A lease kept by heartbeats: a worker renews the claim on every job it holds ({@link WatchQueue.renew}, pg-boss's
 *   `touch`, one statement per thousand jobs) more often than `leaseSeconds`; a job whose claim was not renewed
 *   for `leaseSeconds` is failed by pg-boss's supervisor and retried at once. So the payments of a worker killed
 *   with SIGKILL are taken over within `leaseSeconds + superviseSeconds` plus one fetch interval, while a live
 *   worker keeps a payment for as long as it watches it (at most `maxWatchSeconds`, pg-boss's expiry), with no
 *   write per payment in between.
 * - {@link WatchQueue.requeue} completes the job and enqueues the next watch of the order in one transaction: a
 *   payment whose watch ran out, or whose worker is shutting down, is never dropped.
 *
 * @module
 */
import type { Job, PgBoss } from "pg-boss";
import type { Sql, SqlDatabase } from "./sql";

/** The queue's name in pg-boss. */
export const WATCH_QUEUE = "payment-watch";

/** What a watch job carries: the order and the only payment that may fulfil it. */
export interface WatchJobData {
  orderId: string;
  paymentId: string;
}

/** A watch taken by a worker: pg-boss's job (its id and attempt fence the settle calls). */
export type WatchJob = Job<WatchJobData>;

/** Settings of the queue (the same in every process of the shop). */
export interface WatchQueueOptions {
  /**
   * How long a worker's claim on a job lasts without a heartbeat before pg-boss hands the job to another worker
   * (pg-boss's `heartbeatSeconds`: at least 10). Default 30 s.
   */
  leaseSeconds?: number;
  /** The longest a worker may hold one job, heartbeats or not (pg-boss's `expireInSeconds`). Default 1 hour. */
  maxWatchSeconds?: number;
  /** How often pg-boss's supervisor looks for jobs past their lease. Default 10 s. */
  superviseSeconds?: number;
  /** Run the supervisor in this process (workers: true; the shop's web processes: false). Default false. */
  supervise?: boolean;
  /** pg-boss's schema in the shop's database. Default `pgboss`. */
  schema?: string;
}

/** pg-boss's view of a connection: the shop's pool, or one of its transactions. */
function asBossDb(sql: Sql) {
  return {
    executeSql: async (text: string, values?: unknown[]) => ({ rows: (await sql.query(text, values)).rows }),
  };
}

/** The payment-watch queue of a shop, over the shop's own database. */
export class WatchQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly db: SqlDatabase,
    /** How long a claim lasts without a heartbeat, in seconds: a worker renews its claims more often. */
    readonly leaseSeconds: number,
    /** The longest a worker may hold one job, in seconds: a worker's watch of one job must end before it. */
    readonly maxWatchSeconds: number,
  ) {}

  /**
   * Installs (or migrates) pg-boss's schema and the queue in the shop's database at `url`, then starts pg-boss on
   * a small pool of its own. `db` is the shop's: the transactions that enqueue or hand on a watch run on it.
   */
  static async open(db: SqlDatabase, url: string, options: WatchQueueOptions = {}): Promise<WatchQueue> {
    const { PgBoss } = await import("pg-boss");
    const leaseSeconds = options.leaseSeconds ?? 30;
    const maxWatchSeconds = options.maxWatchSeconds ?? 60 * 60;
    const superviseSeconds = options.superviseSeconds ?? 10;
    if (!Number.isInteger(leaseSeconds) || leaseSeconds < 10)
      throw new RangeError(`leaseSeconds must be a whole number of seconds, 10 or more: ${leaseSeconds}`);
    if (
      !Number.isInteger(maxWatchSeconds) ||
      maxWatchSeconds <= leaseSeconds ||
      maxWatchSeconds > 24 * 60 * 60
    )
      throw new RangeError(
        `maxWatchSeconds must be a whole number of seconds above leaseSeconds, at most a day: ${maxWatchSeconds}`,
      );
    const boss = new PgBoss({
      connectionString: url,
      max: 3,
      schema: options.schema ?? "pgboss",
      supervise: options.supervise ?? false,
      superviseIntervalSeconds: superviseSeconds,
      monitorIntervalSeconds: superviseSeconds,
      // Each hand-on leaves a completed job: removed an hour later (deleteAfterSeconds), checked every 5 minutes.
      maintenanceIntervalSeconds: 300,
      schedule: false,
      registerInstance: false,
    });
    // pg-boss reports what it could not do (a supervisor pass on a lost connection) as events: keep the process up.
    boss.on("error", (error) => console.error(`payment-watch queue: ${String(error)}`));
    await boss.start();
    await boss.createQueue(WATCH_QUEUE, {
      policy: "exclusive",
      heartbeatSeconds: leaseSeconds,
      expireInSeconds: maxWatchSeconds,
      // A lease that ran out is retried at once; the number of retries is not a limit we want (a payment may
      // stay pending for days), and a job that still ends `failed` is found again by `enqueueAwaiting`.
      retryLimit: 1_000_000,
      retryDelay: 0,
      deleteAfterSeconds: 60 * 60,
    });
    return new WatchQueue(boss, db, leaseSeconds, maxWatchSeconds);
  }

  /**
   * Enqueues the watch of an order's payment, in `tx` when given (the transaction that records the checkout).
   * False when the order already has a queued or active watch.
   */
  async enqueue(data: WatchJobData, tx?: Sql, startAfterSeconds = 0): Promise<boolean> {
    const id = await this.boss.send(WATCH_QUEUE, data, {
      singletonKey: data.orderId,
      startAfter: startAfterSeconds,
      ...(tx ? { db: asBossDb(tx) } : {}),
    });
    return id !== null;
  }

  /** Takes up to `limit` watches for this process (each held while {@link renew} renews it). */
  take(limit: number): Promise<WatchJob[]> {
    return this.boss.fetch<WatchJobData>(WATCH_QUEUE, { batchSize: limit });
  }

  /**
   * Renews this process's claim on `jobs` (pg-boss's `touch`, fenced to each job's attempt), a thousand per
   * statement. Returns the jobs whose claim had lapsed: another worker may hold them now, stop watching them.
   * `isHeld` says which jobs the worker still holds once a statement returns: a job settled meanwhile is not
   * renewed, and is not lost either.
   */
  async renew(jobs: readonly WatchJob[], isHeld: (job: WatchJob) => boolean): Promise<WatchJob[]> {
    const lost: WatchJob[] = [];
    for (let i = 0; i < jobs.length; i += 1000) {
      // Only what is still held when the statement goes: a job settled since the renewal began is not renewed.
      const chunk = jobs.slice(i, i + 1000).filter(isHeld);
      const response = await this.boss.touch(WATCH_QUEUE, chunk.map(attemptOf));
      if (affectedCount(response) === chunk.length) continue;
      // Some were not renewed: settled while the statement ran, or a lapsed claim. pg-boss names the ones it
      // renewed; without that list, ask for each job alone.
      const renewed = renewedIds(response);
      for (const job of chunk) {
        if (!isHeld(job)) continue;
        const kept = renewed
          ? renewed.has(job.id)
          : affected(await this.boss.touch(WATCH_QUEUE, attemptOf(job)));
        if (!kept) lost.push(job);
      }
    }
    return lost;
  }

  /** Ends a watch whose order is settled. False when the lease had lapsed (another worker holds the order now). */
  async done(job: WatchJob): Promise<boolean> {
    // On the shop's pool, which queues a burst of completions; pg-boss's own small pool is for fetch and supervise.
    return affected(await this.boss.complete(WATCH_QUEUE, attemptOf(job), null, { db: asBossDb(this.db) }));
  }

  /**
   * Hands a watch on: completes this attempt and enqueues the order's next watch, `delaySeconds` from now, in one
   * transaction. Nothing happens when the lease had lapsed (the job is another worker's already).
   */
  async requeue(job: WatchJob, delaySeconds = 0): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const db = asBossDb(tx);
      if (!affected(await this.boss.complete(WATCH_QUEUE, attemptOf(job), null, { db }))) return false;
      await this.boss.send(WATCH_QUEUE, job.data, {
        singletonKey: job.data.orderId,
        startAfter: delaySeconds,
        db,
      });
      return true;
    });
  }

  /**
   * Hands many watches on at once (a shutdown): completes their attempts and enqueues their next watches, a
   * thousand per transaction. A watch whose lease had lapsed stays with the worker that holds it now: its successor
   * conflicts with that worker's job and is not inserted.
   */
  async requeueAll(jobs: readonly WatchJob[]): Promise<void> {
    for (let i = 0; i < jobs.length; i += 1000) {
      const chunk = jobs.slice(i, i + 1000);
      await this.db.transaction(async (tx) => {
        const db = asBossDb(tx);
        await this.boss.complete(WATCH_QUEUE, chunk.map(attemptOf), null, { db });
        const next = chunk.map((job) => ({ data: job.data, singletonKey: job.data.orderId }));
        await this.boss.insert(WATCH_QUEUE, next, { db });
      });
    }
  }

  /**
   * Enqueues a watch for each of these orders that has none (orders recorded before the queue existed, or whose
   * job ended `failed`), a thousand per statement. Returns how many were enqueued.
   */
  async enqueueAll(watches: readonly WatchJobData[]): Promise<number> {
    let added = 0;
    for (let i = 0; i < watches.length; i += 1000) {
      const jobs = watches.slice(i, i + 1000).map((data) => ({ data, singletonKey: data.orderId }));
      added += (await this.boss.insert(WATCH_QUEUE, jobs, { returnId: true }))?.length ?? 0;
    }
    return added;
  }

  /** Stops pg-boss in this process: its timers and its pool (the shop's database is the caller's to close). */
  stop(): Promise<void> {
    return this.boss.stop({ graceful: false });
  }
}

const attemptOf = (job: WatchJob) => ({ id: job.id, retryCount: job.retryCount });

/** How many jobs a settle call changed: pg-boss answers `{ jobs, requested, affected }`. */
function affectedCount(response: object): number {
  return (response as { affected?: number }).affected ?? 0;
}

const affected = (response: object): boolean => affectedCount(response) === 1;

/** The ids a settle call or `touch` changed, when pg-boss lists them (`settled`, beside `affected`). */
function renewedIds(response: object): Set<string> | undefined {
  const settled = (response as { settled?: unknown }).settled;
  return Array.isArray(settled) ? new Set(settled.map(String)) : undefined;
}
