/**
 * The real PostgreSQL server of the `postgres` project (the settlement workers' tests): `DATABASE_URL` when set
 * (`.ci/run` starts the server with `scripts/postgres.sh run …`), else this global setup starts one with the same
 * script and stops it afterwards. A server that cannot be started fails the tests: they never skip.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { openDatabase, type SqlDatabase } from "../../examples/shared/sql.js";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

const SCRIPT = fileURLToPath(new URL("../../scripts/postgres.sh", import.meta.url));
const script = (command: string) =>
  execFileSync("bash", [SCRIPT, command], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();

export default function postgresServer(project: TestProject): (() => void) | undefined {
  const given = process.env.DATABASE_URL;
  if (given) {
    project.provide("databaseUrl", given);
    return undefined;
  }
  project.provide("databaseUrl", script("start"));
  return () => void script("stop");
}

/** A new empty database on the server of `adminUrl`, for one test file, and how to drop it. */
export async function freshDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `test_${randomUUID().replaceAll("-", "")}`;
  // Each step on a connection of its own to the server's admin database.
  const admin = async (work: (server: SqlDatabase) => Promise<unknown>) => {
    const server = await openDatabase({ url: adminUrl, dataDir: "" });
    try {
      await work(server);
    } finally {
      await server.close();
    }
  };
  await admin((server) => server.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = () =>
    admin(async (server) => {
      await sessionsEnded(server, name);
      await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
  return { url: url.href, drop };
}

/**
 * Waits until no session is connected to database `name` (every 50 ms, at most 200 times). A `pg` pool's `end()`
 * resolves once its clients are told to end, not once they have: `DROP DATABASE ... WITH (FORCE)` would then
 * terminate a client of this process that is still closing, and its `FATAL` arrives as an uncaught error.
 */
async function sessionsEnded(server: SqlDatabase, name: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await server.query<{ sessions: number }>(
      "SELECT count(*)::int AS sessions FROM pg_stat_activity WHERE datname = $1",
      [name],
    );
    if (rows[0]?.sessions === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
