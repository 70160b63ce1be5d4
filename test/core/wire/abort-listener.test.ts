/**
 * Issue 27: the abort listener the `node:http` wire puts on a request's signal holds nothing of the exchange once the
 * answer is in. The listener is removed then; yet on Node 22, once V8 allocated `EventTarget` listener lists in the old
 * generation (it decides so from how long they live), a listener closing over the exchange kept the request, the
 * outgoing message and the promise chain of every request in flight at a minor collection until a major one: a create
 * at 64 at a time put 13 KB into the old generation instead of 5 (`bench/promotion.mjs`). Here the test itself keeps
 * the listener, standing in for whatever kept it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeFetch } from "../../../src/core/wire/node-fetch.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(201, { "content-type": "application/json" }).end('{"id":"pay_1"}'));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/payments`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends one POST through the wire, keeping every listener added to its signal; the request is not kept. */
async function sendKeepingListeners(
  fetch: typeof globalThis.fetch,
  kept: EventListenerOrEventListenerObject[],
): Promise<WeakRef<Request>> {
  const request = new Request(url, { method: "POST", body: '{"amount":"1999"}' });
  const { signal } = request;
  const add = signal.addEventListener.bind(signal);
  signal.addEventListener = (
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: AddEventListenerOptions | boolean,
  ) => {
    kept.push(listener);
    add(type, listener, options);
  };
  const response = await fetch(request);
  expect(response.status).toBe(201);
  return new WeakRef(request);
}

/** Full collections until `ref` is cleared, at most 10 (a WeakRef's target is kept until the current job ends). */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let round = 0; round < 10 && ref.deref() !== undefined; round++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return ref.deref() === undefined;
}

describe("the abort listener on a request's signal", () => {
  it("keeps nothing of the exchange once the answer is in, even when something keeps the listener", async () => {
    const fetch = createNodeFetch({ maxSockets: 1, maxResponseBytes: 1_048_576 });
    const kept: EventListenerOrEventListenerObject[] = [];
    const request = await sendKeepingListeners(fetch, kept);
    expect(kept).toHaveLength(1);
    expect(await collected(request)).toBe(true);
  });
});
