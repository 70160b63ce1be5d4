// The package's mock server (dist/testing) in a child process, with one payment to poll. Prints
// `{ url, apiKey, merchantId, paymentId }` once ready.
import { DIST_TESTING } from "./common.mjs";

const { startMockServer } = await import(DIST_TESTING);
const mock = await startMockServer({ pollInMs: 1000 });
const apiKey = mock.service.keys.test;
const merchantId = mock.service.merchantId;
const res = await fetch(`${mock.url}/v1/payments`, {
  method: "POST",
  headers: { "api-key": apiKey, "merchant-id": merchantId, "content-type": "application/json" },
  body: JSON.stringify({ referenceId: "order-1", amount: { unit: "iso4217/USD", value: "1999" } }),
});
const { id: paymentId } = await res.json();
process.stdout.write(`${JSON.stringify({ url: mock.url, apiKey, merchantId, paymentId })}\n`);
process.on("SIGTERM", () => {
  mock.close().then(() => process.exit(0));
});
