// Throughput of the mock server (dist/testing `startMockServer`, in its own process) over loopback: the load
// comes from undici.request (the cheapest client measured) at concurrency 64 from this process, for a fixed time
// after a warm-up. GET is a payment's status; POST creates a payment (idempotency key included).
//
//   node bench/throughput.mjs [--seconds=3] [--json]
import { randomUUID } from "node:crypto";
import { Agent, request } from "undici";
import { fmt, isMain, parseArgs, requireDist, startChild, table } from "./lib/common.mjs";

const CONCURRENCY = 64;

async function load(call, ms) {
  let count = 0;
  let errors = 0;
  const end = performance.now() + ms;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const status = await call();
        if (status >= 400) errors++;
        count++;
      }
    }),
  );
  const elapsed = performance.now() - start;
  return { requestsPerSecond: (count * 1000) / elapsed, errors, count };
}

export async function measure({ seconds = 3 } = {}) {
  requireDist();
  const mock = await startChild(new URL("./lib/mock-server.mjs", import.meta.url).pathname);
  const dispatcher = new Agent({ connections: CONCURRENCY, pipelining: 1 });
  try {
    const headers = { "api-key": mock.apiKey, "merchant-id": mock.merchantId, accept: "application/json" };
    const statusUrl = `${mock.url}/v1/payments/${mock.paymentId}/status`;
    const get = async () => {
      const res = await request(statusUrl, { headers, dispatcher });
      await res.body.text();
      return res.statusCode;
    };
    const post = async () => {
      const res = await request(`${mock.url}/v1/payments`, {
        method: "POST",
        dispatcher,
        headers: { ...headers, "content-type": "application/json", "idempotency-key": randomUUID() },
        body: JSON.stringify({ referenceId: "order-1", amount: { unit: "iso4217/USD", value: "1999" } }),
      });
      await res.body.text();
      return res.statusCode;
    };
    await load(get, 1000);
    const getResult = await load(get, seconds * 1000);
    await load(post, 300);
    const postResult = await load(post, (seconds * 1000) / 2);
    return [
      { name: "GET /v1/payments/{id}/status", ...getResult },
      { name: "POST /v1/payments", ...postResult },
    ];
  } finally {
    await dispatcher.close();
    await mock.stop();
  }
}

export function render(results) {
  return table(
    ["mock server, concurrency 64", "requests/s", "errors"],
    results.map((r) => [r.name, fmt.int(r.requestsPerSecond), r.errors]),
  );
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  const results = await measure({ seconds: Number(args.seconds ?? 3) });
  process.stdout.write(args.json ? `${JSON.stringify(results)}\n` : `${render(results)}\n`);
}
