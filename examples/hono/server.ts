/**
 * The Hono shop served on Node with `@hono/node-server`: `npm run example:hono` from the repository root (it installs
 * the examples' dependencies and starts a mock service when no `MERCHANT_PAYMENTS_*` variables are set).
 *
 * On Bun or Deno, serve `createApp(...).fetch` with `Bun.serve` or `Deno.serve` instead; the app itself is the same.
 * Copying it: `npm install merchant-payments hono @hono/node-server @electric-sql/pglite pg`, with
 * `examples/shared/checkout-flow.ts` and `examples/shared/orders.ts`.
 *
 * @module
 */
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { MerchantPaymentsClient } from "merchant-payments";
import { openOrders } from "../shared/orders";
import { createApp } from "./app";

/** A running shop: its address, and how to stop it (the server, then the database). */
export interface HonoShop {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the shop on `PORT` (default 3000), configured by the environment: `MERCHANT_PAYMENTS_*` for the client,
 * `DATABASE_URL` or `SHOP_DATA_DIR` (default `.data/hono-shop`) for the orders, `PUBLIC_URL` for the return URLs.
 */
export async function startHonoShop(env: NodeJS.ProcessEnv = process.env): Promise<HonoShop> {
  const client = new MerchantPaymentsClient();
  const orders = await openOrders({ url: env.DATABASE_URL, dataDir: env.SHOP_DATA_DIR ?? ".data/hono-shop" });
  const port = Number(env.PORT ?? 3000);
  const url = `http://127.0.0.1:${port}`;
  const app = createApp(client, orders, { publicUrl: env.PUBLIC_URL ?? url });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const listening = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => resolve(listening));
  });
  return {
    url,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await orders.close();
    },
  };
}

export async function main(): Promise<void> {
  const shop = await startHonoShop();
  console.log(`Shop on ${shop.url} (Hono on @hono/node-server)`);
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    void shop.close().finally(() => process.exit(0));
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
