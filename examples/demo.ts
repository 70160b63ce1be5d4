/**
 * The whole checkout flow on this machine, with no network and no configuration: `npm run demo`.
 *
 * It starts the bundled mock service and a small shop on 127.0.0.1, sets up a merchant and its crypto settlement,
 * then walks three orders through checkout (paid, failed, cancelled) and shows that a forged return is refused.
 * `npm run demo -- --serve` keeps both servers up (shop on 3000, mock on 4010; change with `--shop-port N` and
 * `--mock-port N`) so you can click through the same flow in a browser.
 */
import { MerchantPaymentsClient } from "merchant-payments";
import { DEFAULT_TEST_ASSET, startMockServer } from "merchant-payments/testing";
import { type Order, type Shop, startShop } from "./shop/site.js";

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
  const shop = await startShop(client, portArg("shop-port", serve ? 3000 : 0));
  say(`shop listening on ${shop.url}`);

  if (serve) {
    console.log(`\nOpen ${shop.url} and buy a mug: the portal lets you pay or fail with a test wallet.`);
    console.log("Press Ctrl+C to stop.");
    process.once("SIGINT", () => void Promise.all([shop.close(), mock.close()]).then(() => process.exit(0)));
    return;
  }

  try {
    const buyer = (outcome: "success" | "failure") => (paymentId: string) =>
      mock.service.simulateBuyer(paymentId, { outcome });

    console.log("\n— Order 1: the buyer pays");
    const paid = await placeOrder(shop, buyer("success"));
    expect(
      paid.order.state === "fulfilled",
      `order ${paid.order.id} fulfilled after server-side verification`,
    );
    const status = await client.checkout.status(paid.paymentId);
    say(`service says ${status.status}; txId ${String(status.info?.txId)} (synthetic in test mode)`);

    console.log("\n— Order 2: the payment fails");
    const failed = await placeOrder(shop, buyer("failure"));
    expect(
      failed.order.state === "payment_failed",
      `order ${failed.order.id} not fulfilled; buyer offered a retry`,
    );

    console.log("\n— Order 3: the merchant cancels, then someone opens the success URL anyway");
    const cancelled = await placeOrder(shop, (paymentId) => {
      return client.payments.cancel(paymentId).then((result) => {
        say(`payment ${result.paymentId} ${result.status} (${result.cancelledReason})`);
        return `${shop.url}/orders/${encodeURIComponent(orderIdOf(shop, paymentId))}/success?payment_id=${paymentId}`;
      });
    });
    expect(
      cancelled.order.state === "cancelled",
      `order ${cancelled.order.id} not fulfilled: the service says cancelled`,
    );

    console.log("\n— A forged return: order 2's success URL with order 1's payment id");
    const forged = await fetch(`${shop.url}/orders/${failed.order.id}/success?payment_id=${paid.paymentId}`);
    expect(forged.status === 400, `forged return refused before asking the service (HTTP ${forged.status})`);
    expect(failed.order.state === "payment_failed", `order ${failed.order.id} still not fulfilled`);
  } finally {
    await Promise.all([shop.close(), mock.close()]);
  }

  console.log(
    failures.length === 0 ? "\nDemo complete: every step behaved." : `\nDemo FAILED: ${failures.join("; ")}`,
  );
  process.exitCode = failures.length === 0 ? 0 : 1;
}

/** A buyer's journey: order, redirect to the portal, pay (or not), come back to the shop. */
async function placeOrder(
  shop: Shop,
  buyer: (paymentId: string) => string | null | Promise<string | null>,
): Promise<{ order: Order; paymentId: string }> {
  const response = await fetch(`${shop.url}/orders`, { method: "POST", redirect: "manual" });
  const gatewayUrl = response.headers.get("location") ?? "";
  const order = [...shop.orders.values()].at(-1) as Order;
  const paymentId = order.paymentId ?? "";
  say(`order ${order.id} placed; payment ${paymentId}; buyer redirected to ${gatewayUrl}`);

  const portal = await fetch(gatewayUrl);
  const html = await portal.text();
  say(`portal page: HTTP ${portal.status}, shows the merchant: ${html.includes("Demo Mug Shop")}`);

  const returnUrl = await buyer(paymentId);
  say(`buyer sent back to ${returnUrl}`);
  if (returnUrl) {
    const page = await fetch(returnUrl);
    const title = /<h1>(.*?)<\/h1>/.exec(await page.text())?.[1] ?? "";
    say(`shop answered HTTP ${page.status}: "${title}"`);
  }
  return { order, paymentId };
}

function orderIdOf(shop: Shop, paymentId: string): string {
  return [...shop.orders.values()].find((order) => order.paymentId === paymentId)?.id ?? "";
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
