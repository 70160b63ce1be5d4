/**
 * Runs N settlement workers (`examples/worker.ts`) as N processes on the shop's PostgreSQL database
 * (`DATABASE_URL`): `npm run workers -- 3`. SIGINT or SIGTERM is passed to each, which hands its payments back to
 * the queue; the fleet exits once they all have. A worker that dies is not restarted here (that is your process
 * manager's job): its payments are taken over by the others after its lease (`docs/workers.md`).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const count = Number(process.argv[2] ?? 2);
if (!Number.isInteger(count) || count < 1 || count > 64) {
  console.error(
    "usage: npm run workers -- N   (1 to 64 worker processes; DATABASE_URL names the shop's database)",
  );
  process.exit(2);
}
if (!process.env.DATABASE_URL) {
  console.error(
    "DATABASE_URL must name the shop's PostgreSQL database (bash scripts/postgres.sh start prints one)",
  );
  process.exit(2);
}
const worker = fileURLToPath(new URL("../worker.ts", import.meta.url));
const children = Array.from({ length: count }, (_, i) =>
  spawn(process.execPath, ["--import", "tsx", worker], {
    stdio: "inherit",
    env: {
      ...process.env,
      WORKER_NAME: process.env.WORKER_NAME ? `${process.env.WORKER_NAME}-${i + 1}` : `worker-${i + 1}`,
    },
  }),
);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill("SIGTERM");
  });
}
const codes = await Promise.all(
  children.map(
    (child) => new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code))),
  ),
);
process.exitCode = codes.every((code) => code === 0) ? 0 : 1;
