/**
 * The SQL databases the shop runs on, behind one small interface: PGlite (PostgreSQL in WebAssembly, embedded, one
 * process) or a PostgreSQL server through a `pg` pool (shared by every instance of the shop and its workers). The
 * orders (`./orders.ts`) and the payment-watch queue (`./watch-queue.ts`) both run on it.
 *
 * @module
 */
import { mkdir } from "node:fs/promises";

/** A query's answer, the same for PGlite and `pg`. */
export interface SqlResult<Row> {
  rows: Row[];
  /** Rows inserted, updated or deleted by the statement. */
  rowCount: number;
}

/** What a statement runs on: the database, or a transaction of it. */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<SqlResult<Row>>;
}

/** A database the orders live in: PGlite on disk or in memory, or a PostgreSQL server. */
export interface SqlDatabase extends Sql {
  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** PGlite in `dataDir` (a directory, created if missing, or `memory://`), or a server when `url` is given. */
export function openDatabase(location: { url?: string | undefined; dataDir: string }): Promise<SqlDatabase> {
  return location.url ? openServer(location.url) : openEmbedded(location.dataDir);
}

/** PGlite: PostgreSQL in WebAssembly, in this process. Loaded on first use (it is a large module). */
async function openEmbedded(dataDir: string): Promise<SqlDatabase> {
  // PGlite makes only the last folder of the path: on a fresh clone `.data/` does not exist yet.
  if (!/^[a-z]+:\/\//.test(dataDir)) await mkdir(dataDir, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const pglite = await PGlite.create(dataDir);
  const run = async <Row>(on: Pick<typeof pglite, "query">, text: string, params?: unknown[]) => {
    const result = await on.query<Row>(text, params);
    return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
  };
  return {
    query: (text, params) => run(pglite, text, params),
    // PGlite runs one transaction at a time: the others wait for it (the same outcome as row locks on a server).
    transaction: (work) =>
      pglite.transaction((tx) => work({ query: (text, params) => run(tx, text, params) })),
    close: () => pglite.close(),
  };
}

/** A PostgreSQL server through a `pg` pool. */
async function openServer(url: string): Promise<SqlDatabase> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const run = async <Row>(on: Pick<typeof pool, "query">, text: string, params?: unknown[]) => {
    const result = await on.query(text, params);
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
  };
  return {
    query: (text, params) => run(pool, text, params),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work({ query: (text, params) => run(client, text, params) });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
