/**
 * The real PostgreSQL server of the `postgres` project (the settlement workers' tests): `DATABASE_URL` when set
 * (`.ci/run` starts the server with `scripts/postgres.sh run …`), else this global setup starts one with the same
 * script and stops it afterwards. A server that cannot be started fails the tests: they never skip.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../examples/shared/sql.js";

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
  const admin = async (sql: string) => {
    const server = await openDatabase({ url: adminUrl, dataDir: "" });
    try {
      await server.query(sql);
    } finally {
      await server.close();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
