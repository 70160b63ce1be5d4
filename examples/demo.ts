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
import { MerchantPaymentsClient } from "merchant-payments";
import { DEFAULT_TEST_ASSET, type MockServer, startMockServer } from "merchant-payments/testing";
import { type Order, openOrders } from "./shared/orders.js";
import { type Shop, startShop } from "./shop/site.js";
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

function expect(condition: boolean, what: string): void {
  say(`${condition ? "ok  " : "FAIL"} ${what}`);
  if (!condition) failures.push(what);
}

/** The value of `--name N` on the command line, as a port. */
function portArg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

async function main(): Promise<void> {
  const serve = process.argv.includes("--serve");
  const mock = await startMockServer({ pollInMs: 200, port: portArg("mock-port", serve ? 4010 : 0) });
  say(`mock service listening on ${mock.url} (test key ${mock.service.keys.test.slice(0, 10)}…)`);

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

  const client = new MerchantPaymentsClient({
    apiKey: mock.service.keys.test,
    baseUrl: mock.url,
    merchantId: merchant.id,
  });
  const dataDir = await mkdtemp(join(tmpdir(), "merchant-payments-demo-"));
  say("creating the orders database (a new embedded PostgreSQL takes a few seconds)…");
  let orders = await openOrders({ dataDir });
  say(`orders database: embedded PostgreSQL (PGlite) in ${dataDir}`);
  const shipped: string[] = [];
  const shopOptions = {
    returnWaitMs: 30_000,
    onFulfil: (order: Order) => {
      shipped.push(order.id);
      say(`shipping order ${order.id} (${order.amount} ${order.currency})`);
    },
  };
  let shop = await startShop(client, orders, {
    ...shopOptions,
    port: portArg("shop-port", serve ? 3000 : 0),
  });
  say(`shop listening on ${shop.url}`);
  const stop = async () => {
    await Promise.all([shop.close(), mock.close()]);
    await orders.close();
    await rm(dataDir, { recursive: true, force: true });
  };

  if (serve) {
    // The polling worker: fulfils the orders of buyers who paid but never came back to the shop.
    const worker = setInterval(() => {
      settleOrders(client, orders, { poll: false, onFulfil: shopOptions.onFulfil }).catch(console.error);
    }, 2_000);
    console.log(`\nOpen ${shop.url} and buy a mug: the portal lets you pay or fail with a test wallet.`);
    console.log("Press Ctrl+C to stop.");
    process.once("SIGINT", () => {
      clearInterval(worker);
      void stop().then(() => process.exit(0));
    });
    return;
  }

  try {
    const buyer = (outcome: "success" | "failure") => (paymentId: string) =>
      mock.service.simulateBuyer(paymentId, { outcome });
    const stateOf = async (order: PlacedOrder) => (await orders.get(order.id))?.state;

    console.log("\n— Order 1: the buyer pays");
    const paid = await placeOrder(shop, mock, buyer("success"));
    expect(
      (await stateOf(paid)) === "fulfilled",
      `order ${paid.id} fulfilled after server-side verification`,
    );
    const status = await client.checkout.status(paid.paymentId);
    say(`service says ${status.status}; txId ${String(status.info?.txId)} (synthetic in test mode)`);

    console.log("\n— Order 2: the payment fails");
    const failed = await placeOrder(shop, mock, buyer("failure"));
    expect(
      (await stateOf(failed)) === "payment_failed",
      `order ${failed.id} not fulfilled; buyer offered a retry`,
    );

    console.log("\n— Order 3: the merchant cancels, then someone opens the success URL anyway");
    const cancelled = await placeOrder(shop, mock, async (paymentId) => {
      const result = await client.payments.cancel(paymentId);
      say(`payment ${result.paymentId} ${result.status} (${result.cancelledReason})`);
      const order = mock.service.payments.find((p) => p.id === paymentId)?.referenceId ?? "";
      return `${shop.url}/orders/${encodeURIComponent(order)}/success?payment_id=${paymentId}`;
    });
    expect(
      (await stateOf(cancelled)) === "cancelled",
      `order ${cancelled.id} not fulfilled: the service says cancelled`,
    );

    console.log("\n— A forged return: order 2's success URL with order 1's payment id");
    const forged = await fetch(`${shop.url}/orders/${failed.id}/success?payment_id=${paid.paymentId}`);
    expect(forged.status === 400, `forged return refused before asking the service (HTTP ${forged.status})`);
    expect((await stateOf(failed)) === "payment_failed", `order ${failed.id} still not fulfilled`);

    console.log("\n— Order 4: the buyer's return, a reload of it and the polling worker race");
    let returnUrl = "";
    const raced = await placeOrder(shop, mock, (paymentId) => {
      returnUrl = mock.service.simulateBuyer(paymentId, { outcome: "success" }) ?? "";
      return null; // the buyer's browser is slow: the three arrive together below
    });
    const [first, reload, worker] = await Promise.all([
      fetch(returnUrl),
      fetch(returnUrl),
      settleOrders(client, orders, { poll: false, onFulfil: shopOptions.onFulfil }),
    ]);
    say(`return HTTP ${first.status}, reload HTTP ${reload.status}, worker: ${worker.map((r) => r.outcome)}`);
    expect(shipped.filter((id) => id === raced.id).length === 1, `order ${raced.id} shipped exactly once`);

    console.log("\n— The shop restarts; the buyer's browser then restores the return page");
    await shop.close();
    await orders.close();
    orders = await openOrders({ dataDir });
    shop = await startShop(client, orders, { ...shopOptions, port: shop.port });
    say(`shop restarted on ${shop.url}, orders reopened from ${dataDir}`);
    const again = await fetch(returnUrl);
    say(`return after the restart: HTTP ${again.status}`);
    expect((await stateOf(raced)) === "fulfilled", `order ${raced.id} still fulfilled after the restart`);
    expect(
      shipped.filter((id) => id === raced.id).length === 1,
      `order ${raced.id} still shipped exactly once`,
    );
    expect(
      (await orders.fulfilmentCount()) === shipped.length,
      `${shipped.length} fulfilments recorded in the database, one per shipment`,
    );
  } finally {
    await stop();
  }

  console.log(
    failures.length === 0 ? "\nDemo complete: every step behaved." : `\nDemo FAILED: ${failures.join("; ")}`,
  );
  process.exitCode = failures.length === 0 ? 0 : 1;
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
  shop: Shop,
  mock: MockServer,
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
