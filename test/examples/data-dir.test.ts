/**
 * On a fresh clone `.data/` does not exist: the examples' embedded database must create its whole folder path
 * (PGlite itself makes only the last folder), or `PORT=3000 npx tsx examples/express/server.ts` and
 * `examples/worker.ts` crash at once with ENOENT.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { openOrders } from "../../examples/shared/orders.js";

const root = mkdtempSync(join(tmpdir(), "orders-data-dir-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("openOrders creates a data folder whose parents do not exist yet", async () => {
  const dataDir = join(root, "fresh-clone", ".data", "express-shop");
  const orders = await openOrders({ dataDir });
  try {
    const order = await orders.create({ amount: "1.00", currency: "USD" });
    expect((await orders.get(order.id))?.state).toBe("awaiting_payment");
  } finally {
    await orders.close();
  }
  expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
}, 120_000);
