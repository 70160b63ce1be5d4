/**
 * The whole checkout flow on this machine, with no network and no configuration: `npm run demo`.
 *
 * It starts the bundled mock service and a small shop on 127.0.0.1, sets up a merchant and its crypto settlement,
 * then walks orders through checkout (paid, failed, cancelled), shows that a forged return is refused, races the
 * buyer's return, a reload and the polling worker on one order, and restarts the shop: the order ships once.
 * The orders are rows of an embedded PostgreSQL (PGlite) in a temporary directory, removed at the end.
 * `npm run demo -- --serve` keeps both servers up (shop on 3000, mock on 4010; change with `--shop-port N` and
 * `--mock-port N`) so you can click through the same flow in a browser; a worker settles abandoned checkouts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { MerchantPaymentsClient } from "merchant-payments";
import { DEFAULT_TEST_ASSET, type MockServer, startMockServer } from "merchant-payments/testing";
import { type Orders, openOrders } from "./shared/orders.js";
import { type Shop, type ShopOptions, startShop } from "./shop/site.js";
import { settleOrders } from "./worker.js";

const SETTLEMENT_DESTINATION = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const started = performance.now();
const failures: string[] = [];

function say(text: string): void {
  const ms = Math.round(performance.now() - started)
    .toString()
    .padStart(5);
  console.log(`[${ms} ms] ${text}`);
}

/**
 * The ticker of {@link withProgress}: a worker thread that writes straight to stdout, since creating the embedded
 * database keeps the main thread busy (WebAssembly) and its own timers would not fire until it is done.
 */
const TICKER = `
const { writeSync } = require("node:fs");
const { workerData } = require("node:worker_threads");
const begun = Date.now();
setInterval(() => {
  const seconds = Math.round((Date.now() - begun) / 1000);
  writeSync(1, "[" + String(workerData.offset + Date.now() - begun).padStart(5) + " ms]   … " + workerData.what + " (" + seconds + " s)\\n");
}, 3000);
`;

/** Waits for a step that may be slow, with a line every 3 seconds while it runs. */
async function withProgress<T>(what: string, step: () => Promise<T>): Promise<T> {
  const offset = Math.round(performance.now() - started);
  const ticker = new Worker(TICKER, { eval: true, workerData: { what, offset } });
  try {
    return await step();
  } finally {
    await ticker.terminate();
  }
}

function expect(condition: boolean, what: string): void {
  say(`${condition ? "ok  " : "FAIL"} ${what}`);
  if (!condition) failures.push(what);
}

/** The value of `--name N` on the command line, as a port. */
function portArg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

/** What the demo's steps share. The shop and its database are replaced when the shop restarts. */
interface Demo {
  mock: MockServer;
  client: MerchantPaymentsClient;
  dataDir: string;
  orders: Orders;
  shop: Shop;
  /** The warehouse: the ids of the orders shipped, once per shipment. */
  shipped: string[];
  shopOptions: ShopOptions;
}

/** What to undo on exit, last first: the servers, the database, its temporary directory. */
const cleanups: Array<() => Promise<unknown>> = [];
let cleaning: Promise<void> | undefined;

/** Runs every cleanup once, however many times it is asked for (the end of the run, a signal, or both). */
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) await step().catch((error: unknown) => console.error(error));
  })();
  return cleaning;
}

async function main(): Promise<void> {
  const serve = process.argv.includes("--serve");
  // Ctrl+C, or SIGTERM from a CI runner, `docker stop` or `kill`: stop the servers, remove the temporary database.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    // `on`, not `once`: a terminal or a supervisor may signal every process of the group (npm, tsx, this one), so
    // the same signal can come twice; a second one must not kill the cleanup half-way.
    process.on(signal, () => void cleanUp().finally(() => process.exit(serve ? 0 : 1)));
  }
  const mock = await startMockServer({ pollInMs: 200, port: portArg("mock-port", serve ? 4010 : 0) });
  cleanups.push(() => mock.close());
  say(`mock service listening on ${mock.url} (test key ${mock.service.keys.test.slice(0, 10)}…)`);
  const demo = await openShop(mock, await setUpMerchant(mock), portArg("shop-port", serve ? 3000 : 0));
  // The shop and its database are replaced when the demo restarts the shop: close whichever is current.
  cleanups.push(
    () => demo.orders.close(),
    () => demo.shop.close(),
  );
  if (serve) return keepServing(demo);

  try {
    await paidFailedCancelledForged(demo);
    await raceThenRestart(demo);
  } finally {
    await cleanUp();
  }
  console.log(
    failures.length === 0 ? "\nDemo complete: every step behaved." : `\nDemo FAILED: ${failures.join("; ")}`,
  );
  process.exitCode = failures.length === 0 ? 0 : 1;
}

/** Creates the merchant and its crypto settlement, as `examples/setup-merchant.ts` would; returns its id. */
async function setUpMerchant(mock: MockServer): Promise<string> {
  const admin = new MerchantPaymentsClient({ apiKey: mock.service.keys.test, baseUrl: mock.url });
  say(`client in ${admin.mode} mode`);
  const merchant = await admin.merchants.create(
    { name: "Demo Mug Shop", email: "shop@demo.example" },
    { idempotencyKey: "demo-shop-merchant" },
  );
  say(`merchant ${merchant.id} created (${merchant.status})`);
  const chain = DEFAULT_TEST_ASSET.split("/")[0];
  await admin.settlements.createCrypto(merchant.id, [
    { asset: DEFAULT_TEST_ASSET, destination: `${chain}:${SETTLEMENT_DESTINATION}` },
  ]);
  say(`crypto settlement registered: ${DEFAULT_TEST_ASSET} -> ${SETTLEMENT_DESTINATION}`);
  return merchant.id;
}

/** Creates the orders database in a temporary directory and starts the shop on it. */
async function openShop(mock: MockServer, merchantId: string, port: number): Promise<Demo> {
  const client = new MerchantPaymentsClient({
    apiKey: mock.service.keys.test,
    baseUrl: mock.url,
    merchantId,
  });
  const dataDir = await mkdtemp(join(tmpdir(), "merchant-payments-demo-"));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // Measured on a 2-core machine: 2.5 to 6.2 s when quiet, about 20 s under a load average of 17.
  say("creating the orders database (a new embedded PostgreSQL: 3 to 6 seconds, longer on a busy machine)…");
  const creating = performance.now();
  const orders = await withProgress("creating the orders database", () => openOrders({ dataDir }));
  const took = ((performance.now() - creating) / 1000).toFixed(1);
  say(`orders database: embedded PostgreSQL (PGlite) in ${dataDir}, created in ${took} s`);
  const shipped: string[] = [];
  const shopOptions: ShopOptions = {
    returnWaitMs: 10_000,
    onFulfil: (order) => {
      shipped.push(order.id);
      say(`shipping order ${order.id} (${order.amount} ${order.currency})`);
    },
  };
  const shop = await startShop(client, orders, { ...shopOptions, port });
  say(`shop listening on ${shop.url}`);
  return { mock, client, dataDir, orders, shop, shipped, shopOptions };
}

/** `--serve`: keeps both servers up for a browser, with a polling worker, until Ctrl+C or SIGTERM. */
function keepServing(demo: Demo): void {
  // The polling worker: fulfils the orders of buyers who paid but never came back to the shop. A pass starts only
  // when the previous one is done, so an order never has two of the worker's status calls running at once.
  let pass: Promise<unknown> | undefined;
  const worker = setInterval(() => {
    pass ??= settleOrders(demo.client, demo.orders, { poll: false, onFulfil: demo.shopOptions.onFulfil })
      .catch(console.error)
      .finally(() => {
        pass = undefined;
      });
  }, 2_000);
  cleanups.push(async () => {
    clearInterval(worker);
    await pass;
  });
  console.log(`\nOpen ${demo.shop.url} and buy a mug: the portal lets you pay or fail with a test wallet.`);
  console.log("Press Ctrl+C to stop.");
}

const stateOf = async (demo: Demo, order: PlacedOrder) => (await demo.orders.get(order.id))?.state;

async function paidFailedCancelledForged(demo: Demo): Promise<void> {
  const { mock, client, shop } = demo;
  const buyer = (outcome: "success" | "failure") => (paymentId: string) =>
    mock.service.simulateBuyer(paymentId, { outcome });

  console.log("\n— Order 1: the buyer pays");
  const paid = await placeOrder(demo, buyer("success"));
  expect(
    (await stateOf(demo, paid)) === "fulfilled",
    `order ${paid.id} fulfilled after server-side verification`,
  );
  const status = await client.checkout.status(paid.paymentId);
  say(`service says ${status.status}; txId ${String(status.info?.txId)} (synthetic in test mode)`);

  console.log("\n— Order 2: the payment fails");
  const failed = await placeOrder(demo, buyer("failure"));
  expect(
    (await stateOf(demo, failed)) === "payment_failed",
    `order ${failed.id} not fulfilled; buyer offered a retry`,
  );

  console.log("\n— Order 3: the merchant cancels, then someone opens the success URL anyway");
  const cancelled = await placeOrder(demo, async (paymentId) => {
    const result = await client.payments.cancel(paymentId);
    say(`payment ${result.paymentId} ${result.status} (${result.cancelledReason})`);
    const orderId = mock.service.payments.find((p) => p.id === paymentId)?.referenceId ?? "";
    return `${shop.url}/orders/${encodeURIComponent(orderId)}/success?payment_id=${paymentId}`;
  });
  expect(
    (await stateOf(demo, cancelled)) === "cancelled",
    `order ${cancelled.id} not fulfilled: the service says cancelled`,
  );

  console.log("\n— A forged return: order 2's success URL with order 1's payment id");
  const forged = await fetch(`${shop.url}/orders/${failed.id}/success?payment_id=${paid.paymentId}`);
  expect(forged.status === 400, `forged return refused before asking the service (HTTP ${forged.status})`);
  expect((await stateOf(demo, failed)) === "payment_failed", `order ${failed.id} still not fulfilled`);
}

async function raceThenRestart(demo: Demo): Promise<void> {
  console.log("\n— Order 4: the buyer's return, a reload of it and the polling worker race");
  let returnUrl = "";
  const raced = await placeOrder(demo, (paymentId) => {
    returnUrl = demo.mock.service.simulateBuyer(paymentId, { outcome: "success" }) ?? "";
    return null; // the buyer's browser is slow: the three arrive together below
  });
  const [first, reload, worker] = await Promise.all([
    fetch(returnUrl),
    fetch(returnUrl),
    settleOrders(demo.client, demo.orders, { poll: false, onFulfil: demo.shopOptions.onFulfil }),
  ]);
  say(`return HTTP ${first.status}, reload HTTP ${reload.status}, worker: ${worker.map((r) => r.outcome)}`);
  const shipments = () => demo.shipped.filter((id) => id === raced.id).length;
  expect(shipments() === 1, `order ${raced.id} shipped exactly once`);

  console.log("\n— The shop restarts; the buyer's browser then restores the return page");
  await demo.shop.close();
  await demo.orders.close();
  demo.orders = await openOrders({ dataDir: demo.dataDir });
  demo.shop = await startShop(demo.client, demo.orders, { ...demo.shopOptions, port: demo.shop.port });
  say(`shop restarted on ${demo.shop.url}, orders reopened from ${demo.dataDir}`);
  const again = await fetch(returnUrl);
  say(`return after the restart: HTTP ${again.status}`);
  expect((await stateOf(demo, raced)) === "fulfilled", `order ${raced.id} still fulfilled after the restart`);
  expect(shipments() === 1, `order ${raced.id} still shipped exactly once`);
  const recorded = await demo.orders.fulfilmentCount();
  expect(
    recorded === demo.shipped.length,
    `${recorded} fulfilments recorded in the database, one per shipment`,
  );
}

/** An order the demo placed, and its payment. */
interface PlacedOrder {
  id: string;
  paymentId: string;
}

/**
 * A buyer's journey: order, redirect to the portal, pay (or not), come back to the shop. `buyer` acts on the
 * portal and returns the URL the browser is sent back to (null: not now).
 */
async function placeOrder(
  { shop, mock }: Demo,
  buyer: (paymentId: string) => string | null | Promise<string | null>,
): Promise<PlacedOrder> {
  const response = await fetch(`${shop.url}/orders`, { method: "POST", redirect: "manual" });
  const gatewayUrl = response.headers.get("location") ?? "";
  // The shop answered with the portal's address; the mock knows which payment (and order) that is.
  const payment = mock.service.payments.at(-1);
  if (!payment || response.status !== 303)
    throw new Error(`the shop did not redirect (HTTP ${response.status})`);
  const order = { id: payment.referenceId, paymentId: payment.id };
  say(`order ${order.id} placed; payment ${order.paymentId}; buyer redirected to ${gatewayUrl}`);

  const portal = await fetch(gatewayUrl);
  const html = await portal.text();
  say(`portal page: HTTP ${portal.status}, shows the merchant: ${html.includes("Demo Mug Shop")}`);

  const returnUrl = await buyer(order.paymentId);
  if (returnUrl) {
    say(`buyer sent back to ${returnUrl}`);
    const page = await fetch(returnUrl);
    const title = /<h1>(.*?)<\/h1>/.exec(await page.text())?.[1] ?? "";
    say(`shop answered HTTP ${page.status}: "${title}"`);
  }
  return order;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
