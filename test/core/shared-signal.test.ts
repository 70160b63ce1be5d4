import { getEventListeners } from "node:events";
import { delay, HttpResponse } from "msw";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UserAbortError } from "../../src/index.js";
import { testClient } from "../helpers/clients.js";
import { pending } from "../helpers/fixtures.js";
import { useRecordingServer } from "../helpers/recording-server.js";
import { waitUntil } from "../helpers/time.js";

const mock = useRecordingServer();
const CALLS = 50;
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
beforeEach(() => {
  warnings.length = 0;
  process.on("warning", onWarning);
});
afterEach(() => {
  process.off("warning", onWarning);
});

describe("one caller signal shared by many calls (a worker's shutdown signal)", () => {
  it("carries one listener however many requests and watchers wait on it, none after, and no Node warning", async () => {
    mock.respond(async () => {
      await delay("infinite");
      return HttpResponse.json({});
    });
    // Every call holds a connection until the abort: the pool must have room for all of them.
    const client = testClient({ merchantId: "mrch_1", maxSockets: 2 * CALLS });
    const controller = new AbortController();
    const { signal } = controller;
    const requests = Array.from({ length: CALLS }, (_, i) =>
      client.payments.status(`pay_${i}`, { signal }).catch((error: unknown) => error),
    );
    const watchers = Array.from({ length: CALLS }, (_, i) =>
      client.payments.waitForFinal(`pay_w${i}`, { signal }).catch((error: unknown) => error),
    );
    await waitUntil(() => mock.requests.length >= 2 * CALLS, "every first and second poll");
    expect(mock.requests).toHaveLength(2 * CALLS);
    expect(getEventListeners(signal, "abort")).toHaveLength(1);

    controller.abort();
    const errors = await Promise.all([...requests, ...watchers]);
    expect(errors.every((error) => error instanceof UserAbortError)).toBe(true);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((w) => w.name)).not.toContain("MaxListenersExceededWarning");
  });

  it("lets go of the signal when the calls finish normally", async () => {
    mock.respond(() => HttpResponse.json(pending("requires_action")));
    const client = testClient({ merchantId: "mrch_1" });
    const { signal } = new AbortController();
    await Promise.all(
      Array.from({ length: CALLS }, (_, i) => client.payments.status(`pay_${i}`, { signal })),
    );
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});
