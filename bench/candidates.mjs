// Transport candidates over loopback, interleaved, for src/core/transport.ts work: how the way ky is called
// changes the per-request cost (same headers everywhere; "deadline" is the SDK's per-attempt AbortController +
// timer). Not part of `npm run bench`.
//
//   node --expose-gc bench/candidates.mjs
import ky from "ky";
import { MerchantPaymentsClient } from "../dist/index.js";
import { median, startChild } from "./lib/common.mjs";

const server = await startChild(new URL("./lib/fixed-server.mjs", import.meta.url).pathname);
const H = {
  accept: "application/json",
  "user-agent": "merchant-payments/0.1.0",
  "api-key": "mock_test_abc",
  "mock-version": "2026-02-19.preview",
  "merchant-id": "mrch_1",
};
const url = `${server.url}/v1/payments/pay_1/status`;
const kySdk = ky.create({ retry: 0, timeout: false, throwHttpErrors: false });
const kyPass = ky.create({
  retry: 0,
  timeout: false,
  throwHttpErrors: false,
  fetch: (req, o) => fetch(req.url, o.sdkInit),
});
// What the SDK does now: fetch called from ky's beforeRequest hook, whose Response ends ky's work before its clone.
const kyHook = ky.create({
  retry: 0,
  timeout: false,
  throwHttpErrors: false,
  hooks: { beforeRequest: [(_req, o) => fetch(o.sdkInit.url, o.sdkInit.init)] },
});
const client = new MerchantPaymentsClient({
  apiKey: "mock_test_abc",
  baseUrl: server.url,
  merchantId: "mrch_1",
  versionHeader: "Mock-Version",
  apiVersion: "2026-02-19.preview",
});
const withDeadline = (f) => {
  const d = new AbortController();
  const t = setTimeout(() => d.abort(), 30000);
  return f(d.signal).finally(() => clearTimeout(t));
};
const V = {
  fetch: () => fetch(url, { headers: H }).then((r) => r.json()),
  "fetch+deadline signal": () =>
    withDeadline((signal) =>
      fetch(url, { headers: H, signal })
        .then((r) => r.text())
        .then(JSON.parse),
    ),
  "ky as SDK (signal into ky)": () =>
    withDeadline((signal) =>
      kySdk(url, { method: "GET", headers: H, signal })
        .then((r) => r.text())
        .then(JSON.parse),
    ),
  "ky pass-through, signal to fetch only": () =>
    withDeadline((signal) =>
      kyPass(url, { method: "GET", headers: H, sdkInit: { method: "GET", headers: H, signal } })
        .then((r) => r.text())
        .then(JSON.parse),
    ),
  "ky beforeRequest hook, signal to fetch only": () =>
    withDeadline((signal) =>
      kyHook(url, { method: "GET", sdkInit: { url, init: { method: "GET", headers: H, signal } } })
        .then((r) => r.text())
        .then(JSON.parse),
    ),
  SDK: () => client.payments.status("pay_1"),
};
async function c64(f, n) {
  const s = performance.now();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      for (let i = 0; i < n / 64; i++) await f();
    }),
  );
  return ((performance.now() - s) * 1000) / n;
}
async function seq(f, n) {
  const s = performance.now();
  for (let i = 0; i < n; i++) await f();
  return ((performance.now() - s) * 1000) / n;
}
for (const mode of [
  ["c64", c64, 1280],
  ["seq", seq, 300],
]) {
  const names = Object.keys(V);
  const S = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) await mode[1](V[n], mode[2] / 2);
  for (let r = 0; r < 7; r++)
    for (let k = 0; k < names.length; k++) {
      const n = names[(k + r) % names.length];
      gc();
      S[n].push(await mode[1](V[n], mode[2]));
    }
  for (const n of names)
    console.log(
      mode[0],
      n.padEnd(40),
      median(S[n]).toFixed(0),
      "µs",
      `${median(S[n].map((x, i) => x / S.fetch[i])).toFixed(2)}×`,
    );
}
await server.stop();
