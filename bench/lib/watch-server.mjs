// The package's mock server (dist/testing) in a child process for bench/watchers-loopback.mjs, so that the client's
// CPU is measured alone: it creates `--payments=N` payments through the SDK, prints
// `{ url, apiKey, merchantId, ids }` once ready, then on the line `go` from stdin completes them at spread-out times
// over `--spreadMs` (the client's watchers are polling by then), and prints `{ done: true }` when the last is complete.
import { createInterface } from "node:readline";
import { DIST, DIST_TESTING, parseArgs } from "./common.mjs";

const args = parseArgs();
const payments = Number(args.payments ?? 10_000);
const pollInMs = Number(args.pollInMs ?? 500);
const spreadMs = Number(args.spreadMs ?? 2 * pollInMs);
const { startMockServer } = await import(DIST_TESTING);
const { MerchantPaymentsClient } = await import(DIST);
const mock = await startMockServer({ pollInMs, requestLogLimit: 100 });
const apiKey = mock.service.keys.test;
const merchantId = mock.service.merchantId;
const client = new MerchantPaymentsClient({ apiKey, baseUrl: mock.url, merchantId, timeoutMs: 60_000 });
const ids = [];
for (let i = 0; i < payments; i += 500) {
  const batch = Array.from({ length: Math.min(500, payments - i) }, (_, k) =>
    client.payments.create({ referenceId: `order-${i + k}`, amount: { unit: "iso4217/USD", value: "1999" } }),
  );
  for (const created of await Promise.all(batch)) ids.push(created.id);
}
process.stdout.write(`${JSON.stringify({ url: mock.url, apiKey, merchantId, ids })}\n`);
const lines = createInterface({ input: process.stdin });
lines.once("line", () => {
  let left = ids.length;
  ids.forEach((id, i) =>
    setTimeout(
      () => {
        mock.service.completePayment(id);
        if (--left === 0) process.stdout.write(`${JSON.stringify({ done: true })}\n`);
      },
      Math.round((i / ids.length) * spreadMs),
    ),
  );
});
process.on("SIGTERM", () => {
  lines.close();
  mock.close().then(() => process.exit(0));
});
