/**
 * The shop's orders, in a real SQL database: the one place where a merchant either fulfils an order exactly once or
 * loses money. Used by the demo and by the Express, Hono, Next.js and worker examples.
 *
 * - Embedded by default: PGlite (`@electric-sql/pglite`), PostgreSQL compiled to WebAssembly, installed from npm
 *   with no native build, kept in a directory on disk (or `memory://`). One process at a time owns the directory.
 * - With a server: give a `postgres://` URL (the examples read `DATABASE_URL`) and the same SQL runs on PostgreSQL
 *   through `pg`, shared by every instance of the app; each recorded checkout also enqueues its payment's watch
 *   for the settlement workers (`./watch-queue.ts`, `docs/workers.md`), in the same transaction.
 *
 * Three rules make fulfilment safe when the buyer's return, a reload of it and the polling worker race:
 *
 * 1. {@link Orders.create} stores the order with its idempotency key BEFORE the checkout is created, so a lost
 *    answer is recovered by repeating `checkout.create` with the same stored key (the service replays the first
 *    payment instead of creating a second one).
 * 2. {@link Orders.recordCheckout} stores the `paymentId`: the only payment a return may fulfil the order with.
 * 3. {@link Orders.fulfil} is a conditional update inside a transaction (`… WHERE state <> 'fulfilled'`): of any
 *    number of concurrent callers, exactly one sees one row change, and only that one ships. Call it only after
 *    the service said the payment succeeded (`checkout.verifyReturn`, `checkout.status`), never on a redirect.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { openDatabase, type Sql, type SqlDatabase } from "./sql";
import { WatchQueue, type WatchQueueOptions } from "./watch-queue";

export type { Sql, SqlDatabase, SqlResult } from "./sql";

/** Where an order stands. Only `fulfilled` is final for the shop; the others may still change. */
export type OrderState =
  | "awaiting_payment"
  | "fulfilled"
  | "payment_failed"
  | "payment_expired"
  | "cancelled";

/** An order of the shop: a row of the `orders` table. */
export interface Order {
  id: string;
  /** Decimal amount as the buyer saw it (`"19.99"`); turned into minor units by `money()` at checkout. */
  amount: string;
  /** ISO 4217 code (`"USD"`). */
  currency: string;
  /** The `Idempotency-Key` of the order's `checkout.create`, stored before the first attempt. */
  idempotencyKey: string;
  /** The checkout payment of the order, once created: the only payment that may fulfil it. */
  paymentId: string | null;
  /** Where to send the buyer for that payment (the service's portal). */
  gatewayUrl: string | null;
  state: OrderState;
}

/** Where {@link openOrders} keeps the orders. */
export interface OrdersLocation {
  /** A `postgres://` URL of a server (the examples pass `DATABASE_URL`). Wins over `dataDir`. */
  url?: string | undefined;
  /**
   * PGlite's directory (created if missing; default `.data/shop`), or `memory://` for a database that ends with
   * the process (tests).
   */
  dataDir?: string | undefined;
  /**
   * With a server (`url`): the payment-watch queue that each recorded checkout enqueues its watch on, for the
   * settlement workers (`docs/workers.md`), or false for none. Default: the queue with its default settings.
   * PGlite has none: one process owns it, and its worker runs in that process.
   */
  watches?: WatchQueueOptions | false | undefined;
}

/** Called once per order, inside the fulfilling transaction: ship here (see {@link Orders.fulfil}). */
export type FulfilHandler = (order: Order, tx: Sql) => void | Promise<void>;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS orders (
  id text PRIMARY KEY,
  amount text NOT NULL,
  currency text NOT NULL,
  idempotency_key text NOT NULL UNIQUE,
  payment_id text UNIQUE,
  gateway_url text,
  state text NOT NULL DEFAULT 'awaiting_payment'
    CHECK (state IN ('awaiting_payment', 'fulfilled', 'payment_failed', 'payment_expired', 'cancelled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  fulfilled_at timestamptz
);
-- One row per shipped order: the primary key refuses a second fulfilment even if the code above it were wrong.
CREATE TABLE IF NOT EXISTS fulfilments (
  order_id text PRIMARY KEY REFERENCES orders (id),
  payment_id text NOT NULL,
  fulfilled_at timestamptz NOT NULL DEFAULT now()
);`;

const COLUMNS = `id, amount, currency, idempotency_key AS "idempotencyKey", payment_id AS "paymentId",
  gateway_url AS "gatewayUrl", state`;

/** The orders of the shop, over a {@link SqlDatabase}. */
export class Orders {
  constructor(
    readonly db: SqlDatabase,
    /** The payment-watch queue (a shop on a PostgreSQL server), or undefined. */
    readonly watches?: WatchQueue,
  ) {}

  /** Creates the tables if they do not exist yet (safe to run at every start, from several instances). */
  async migrate(): Promise<void> {
    // Serialised by an advisory lock: two instances starting together on one server must not race the DDL.
    await this.db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(20261122)");
      for (const statement of SCHEMA.split(";").filter((s) => s.trim())) await tx.query(statement);
    });
  }

  /** Stores a new order, with the idempotency key its checkout will be created under. */
  async create(input: { amount: string; currency: string }): Promise<Order> {
    const { rows } = await this.db.query<Order>(
      `INSERT INTO orders (id, amount, currency, idempotency_key) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [`ord_${randomUUID()}`, input.amount, input.currency, randomUUID()],
    );
    return only(rows);
  }

  /** The order with this id, or undefined. */
  async get(id: string): Promise<Order | undefined> {
    const { rows } = await this.db.query<Order>(`SELECT ${COLUMNS} FROM orders WHERE id = $1`, [id]);
    return rows[0];
  }

  /** The orders with these ids, by id, in one query (an id without an order is absent from the map). */
  async getMany(ids: readonly string[]): Promise<Map<string, Order>> {
    const { rows } = await this.db.query<Order>(`SELECT ${COLUMNS} FROM orders WHERE id = ANY($1::text[])`, [
      ids,
    ]);
    return new Map(rows.map((order) => [order.id, order]));
  }

  /**
   * Notes the checkout payment of an order. A second call with the same payment (a replayed create) changes
   * nothing; a different payment for an order that already has one is refused (false): one payment per order.
   */
  async recordCheckout(id: string, paymentId: string, gatewayUrl: string): Promise<boolean> {
    const record = async (tx: Sql) => {
      const { rowCount } = await tx.query(
        `UPDATE orders SET payment_id = $2, gateway_url = $3
          WHERE id = $1 AND (payment_id IS NULL OR payment_id = $2)`,
        [id, paymentId, gatewayUrl],
      );
      // The watch commits with the payment id or not at all: no pending payment without its watch.
      if (rowCount === 1) await this.watches?.enqueue({ orderId: id, paymentId }, tx);
      return rowCount === 1;
    };
    return this.watches ? this.db.transaction(record) : record(this.db);
  }

  /** Orders whose checkout exists and whose payment is not settled yet: the polling worker's work list. */
  async awaitingPayment(limit = 100): Promise<Order[]> {
    const { rows } = await this.db.query<Order>(
      `SELECT ${COLUMNS} FROM orders WHERE state = 'awaiting_payment' AND payment_id IS NOT NULL
        ORDER BY created_at LIMIT $1`,
      [limit],
    );
    return rows;
  }

  /**
   * Records that the order's payment did not succeed (failed, expired, cancelled). Never undoes a fulfilment:
   * only an order still awaiting payment changes. True when it did.
   */
  async markUnpaid(
    id: string,
    state: Exclude<OrderState, "awaiting_payment" | "fulfilled">,
  ): Promise<boolean> {
    const { rowCount } = await this.db.query(
      "UPDATE orders SET state = $2 WHERE id = $1 AND state = 'awaiting_payment'",
      [id, state],
    );
    return rowCount === 1;
  }

  /**
   * Fulfils the order paid by `paymentId`, once: a conditional update inside a transaction. The caller that
   * changes the row (exactly one, however many race) records the fulfilment and runs `ship` in the same
   * transaction, then gets true; every other caller gets false and ships nothing. If `ship` throws, the
   * transaction rolls back and the order stays unfulfilled, for the next return or worker pass to retry: so make
   * an external shipment idempotent (key it by the order id), or let `ship` write an outbox row with `tx`.
   *
   * Call it only once the service said the payment succeeded (`outcome.fulfil` of `checkout.verifyReturn`).
   */
  async fulfil(id: string, paymentId: string, ship?: FulfilHandler): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const { rows, rowCount } = await tx.query<Order>(
        `UPDATE orders SET state = 'fulfilled', fulfilled_at = now()
          WHERE id = $1 AND payment_id = $2 AND state <> 'fulfilled'
          RETURNING ${COLUMNS}`,
        [id, paymentId],
      );
      if (rowCount !== 1) return false; // already fulfilled (by a racer, or before a restart), or not this payment
      await tx.query("INSERT INTO fulfilments (order_id, payment_id) VALUES ($1, $2)", [id, paymentId]);
      await ship?.(only(rows), tx);
      return true;
    });
  }

  /** How many orders were fulfilled: rows of the `fulfilments` table. */
  async fulfilmentCount(orderIds?: readonly string[]): Promise<number> {
    const { rows } = orderIds
      ? await this.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM fulfilments WHERE order_id = ANY($1)",
          [orderIds],
        )
      : await this.db.query<{ n: number }>("SELECT count(*)::int AS n FROM fulfilments");
    return only(rows).n;
  }

  async close(): Promise<void> {
    await this.watches?.stop();
    await this.db.close();
  }
}

/**
 * Opens the orders database and creates its tables if needed: a PostgreSQL server when `location.url` is given
 * (with the payment-watch queue in it, unless `watches: false`), else PGlite in `location.dataDir` (default
 * `.data/shop`). Close it with `orders.close()`.
 */
export async function openOrders(location: OrdersLocation = {}): Promise<Orders> {
  const db = await openDatabase({ url: location.url, dataDir: location.dataDir ?? ".data/shop" });
  try {
    await new Orders(db).migrate();
    const { watches = {} } = location;
    return new Orders(
      db,
      location.url && watches ? await WatchQueue.open(db, location.url, watches) : undefined,
    );
  } catch (error) {
    await db.close();
    throw error;
  }
}

function only<T>(rows: T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error("expected one row, got none");
  return row;
}
