// The SDK and the two floors it is held against, over one server: "ky floor" is ky 2 with the SDK's ky options
// (`retry: 0`, `throwHttpErrors: false`, `redirect: "manual"`, the attempt's deadline as `timeout`) over the same
// pooled node:http adapter the SDK uses (`src/core/wire/node-fetch.ts`), the body read as text and parsed, as the SDK
// does: the request layer alone. "ky floor + checks" adds only what each call promises (lib/checks.mjs). Shared by
// the CPU-time bench (http.mjs) and the instruction count (instructions.mjs), so that both hold the same variants.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ky from "ky";
import { checkedCreate, readCreated, readStatus } from "./checks.mjs";
import { DIST, loadAdapter } from "./common.mjs";
import { CLIENT_OPTIONS, CREATE_INPUT, HEADERS, PAYMENT_ID } from "./fixtures.mjs";

/** The variant the SDK is held against (≤ 1.1×). */
export const FLOOR = "ky floor";
/** The ky floor plus the checks every call promises (lib/checks.mjs): the floor of the promises. */
export const CHECKED_FLOOR = "ky floor + checks";
/** The SDK's calls, by operation. */
export const SDK_GET = "SDK payments.status()";
export const SDK_POST = "SDK payments.create()";
/** The SDK of an earlier build (`baseDir`), beside this one: for an A/B of a change. */
export const BASE_SDK = "SDK, base build";

const POST_HEADERS = { ...HEADERS, "content-type": "application/json" };

/** A client of the built SDK (`dist`: its index.js), with the options every bench gives it. */
export async function sdkClient(url, dist = DIST) {
  const { MerchantPaymentsClient } = await import(pathToFileURL(dist).href);
  return new MerchantPaymentsClient({ ...CLIENT_OPTIONS, baseUrl: url, maxRetries: 2, timeoutMs: 30_000 });
}

/** ky as core/http.ts creates it, over `fetch`: only ky's documented options, nothing around the adapter. */
export function kyFloorOver(fetch) {
  return ky.create({ retry: 0, throwHttpErrors: false, redirect: "manual", fetch });
}

/**
 * `{ get, post }`: the ky floor, the ky floor + checks and the SDK, each a function making one call to `url`; with
 * `baseDir` (an earlier build's dist/), that build's SDK too.
 */
export async function sdkAndFloors(url, { baseDir } = {}) {
  const client = await sdkClient(url);
  const base = baseDir === undefined ? undefined : await sdkClient(url, join(baseDir, "index.js"));
  const { createNodeFetch, bodyTextOf } = await loadAdapter();
  const kyFloor = kyFloorOver(createNodeFetch({ maxSockets: 32, maxResponseBytes: 1_048_576 }));
  // The adapter hands its answer's text over beside the Response (src/core/wire/response.ts): read as the SDK reads it.
  const parsed = (response) => JSON.parse(bodyTextOf(response));
  const statusUrl = `${url}/v1/payments/${PAYMENT_ID}/status`;
  const createUrl = `${url}/v1/payments`;
  const get = () => kyFloor(statusUrl, { method: "GET", headers: HEADERS, timeout: 30_000 }).then(parsed);
  const post = (headers, body) =>
    kyFloor(createUrl, { method: "POST", headers, body, timeout: 30_000 }).then(parsed);
  return {
    get: {
      [FLOOR]: get,
      [CHECKED_FLOOR]: () => get().then(readStatus),
      [SDK_GET]: () => client.payments.status(PAYMENT_ID),
      ...(base && { [BASE_SDK]: () => base.payments.status(PAYMENT_ID) }),
    },
    post: {
      [FLOOR]: () => post(POST_HEADERS, JSON.stringify(CREATE_INPUT)),
      [CHECKED_FLOOR]: () => {
        const { body, idempotencyKey } = checkedCreate(CREATE_INPUT);
        return post({ ...POST_HEADERS, "idempotency-key": idempotencyKey }, body).then(readCreated);
      },
      [SDK_POST]: () => client.payments.create(CREATE_INPUT),
      ...(base && { [BASE_SDK]: () => base.payments.create(CREATE_INPUT) }),
    },
  };
}
