// waitForFinal efficiency against the mock server over loopback: payments complete at spread-out times, each is
// awaited with waitForFinal, and the status requests each one cost are counted (through the client's `fetch`
// option) against the bound ⌈elapsed / pollInMs⌉ + 1, where elapsed runs from the call to its result.
//
//   node bench/polling.mjs [--payments=40] [--pollInMs=100] [--spreadMs=1500] [--json]
import { DIST, DIST_TESTING, isMain, parseArgs, requireDist, table } from "./lib/common.mjs";

export async function measure({ payments = 40, pollInMs = 100, spreadMs = 1500 } = {}) {
  requireDist();
  const { MerchantPaymentsClient } = await import(DIST);
  const { startMockServer } = await import(DIST_TESTING);
  const mock = await startMockServer({ pollInMs });
  try {
    const statusRequests = new Map();
    const countingFetch = (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const match = /\/v1\/payments\/([^/]+)\/status/.exec(url);
      if (match) statusRequests.set(match[1], (statusRequests.get(match[1]) ?? 0) + 1);
      return fetch(input, init);
    };
    const client = new MerchantPaymentsClient({
      apiKey: mock.service.keys.test,
      baseUrl: mock.url,
      merchantId: mock.service.merchantId,
      fetch: countingFetch,
    });
    const ids = [];
    for (let i = 0; i < payments; i++) {
      const created = await client.payments.create({
        referenceId: `order-${i}`,
        amount: { unit: "iso4217/USD", value: "1999" },
      });
      ids.push(created.id);
    }
    const runs = ids.map(async (id, i) => {
      // Deterministic spread of completion times over [0, spreadMs).
      const completeAfter = Math.round(((i * 7919) % payments) * (spreadMs / payments));
      const timer = setTimeout(() => mock.service.completePayment(id), completeAfter);
      const start = performance.now();
      const final = await client.payments.waitForFinal(id, {
        minIntervalMs: 0,
        maxWaitMs: spreadMs + 10_000,
      });
      const elapsed = performance.now() - start;
      clearTimeout(timer);
      if (final.status !== "succeeded") throw new Error(`payment ${id} ended ${final.status}`);
      const requests = statusRequests.get(id) ?? 0;
      const bound = Math.ceil(elapsed / pollInMs) + 1;
      return { id, completeAfter, elapsed, requests, bound };
    });
    const results = await Promise.all(runs);
    const totalRequests = results.reduce((sum, r) => sum + r.requests, 0);
    const totalBound = results.reduce((sum, r) => sum + r.bound, 0);
    return {
      payments,
      pollInMs,
      spreadMs,
      requestsPerPayment: totalRequests / payments,
      boundPerPayment: totalBound / payments,
      efficiency: totalRequests / totalBound,
      maxOverBound: Math.max(...results.map((r) => r.requests - r.bound)),
      overBound: results.filter((r) => r.requests > r.bound).length,
      maxRequests: Math.max(...results.map((r) => r.requests)),
    };
  } finally {
    await mock.close();
  }
}

export function render(r) {
  return table(
    ["payments", "pollInMs", "requests / payment", "bound / payment", "requests ÷ bound", "over the bound"],
    [
      [
        r.payments,
        r.pollInMs,
        r.requestsPerPayment.toFixed(2),
        r.boundPerPayment.toFixed(2),
        r.efficiency.toFixed(2),
        `${r.overBound} (max +${Math.max(0, r.maxOverBound)})`,
      ],
    ],
  );
}

if (isMain(import.meta.url)) {
  const args = parseArgs();
  const result = await measure({
    payments: Number(args.payments ?? 40),
    pollInMs: Number(args.pollInMs ?? 100),
    spreadMs: Number(args.spreadMs ?? 1500),
  });
  process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : `${render(result)}\n`);
}
