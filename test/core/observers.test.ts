/**
 * Nothing an observer does changes a call (issue 25 item 2): hooks, the logger and `onUpdate` that throw, reject
 * later or never settle leave every call's outcome as it was and hold nothing up; each failure is reported once, as a
 * warning through the client's logger, and that observer is not called again by the client.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ClientOptions, MerchantPaymentsClient } from "../../src/index.js";
import { createMockService } from "../../src/testing/msw.js";
import { flushRejections, trackUnhandledRejections } from "../helpers/outcomes.js";
import { useMswServer } from "../helpers/msw.js";
import { clientWithWarnings } from "../helpers/warnings.js";

const service = createMockService({ pollInMs: 1 });
useMswServer(...service.handlers);
const rejections = trackUnhandledRejections();
afterEach(async () => {
  await flushRejections();
  expect(rejections.seen).toEqual([]);
  vi.restoreAllMocks();
});

/** A client of the mock, with a logger that keeps its warnings. */
const observed = (options: ClientOptions = {}) => clientWithWarnings(service, options);
const AMOUNT = { unit: "iso4217/USD", value: "1999" } as const;
const create = (client: MerchantPaymentsClient) =>
  client.payments.create({ referenceId: `order-${Math.random()}`, amount: AMOUNT });
/** Warnings about an observer being turned off. */
const turnedOff = (warnings: string[]) => warnings.filter((line) => line.includes("turned off"));

describe("hooks", () => {
  it("a hook that throws is reported once and not called again; every call keeps its outcome", async () => {
    const onRequest = vi.fn(() => {
      throw new Error("metrics backend down");
    });
    const { client, warnings } = observed({ hooks: { onRequest } });
    const first = await create(client);
    const second = await create(client);
    expect(first.id).not.toBe(second.id);
    expect(onRequest).toHaveBeenCalledTimes(1);
    expect(turnedOff(warnings)).toEqual([
      expect.stringMatching(
        /hooks\.onRequest is turned off for this client: it threw Error: metrics backend down/,
      ),
    ]);
  });

  it("an async hook that rejects is no unhandled rejection: reported once, then off", async () => {
    const onResponse = vi.fn(async () => {
      throw new Error("async sink down");
    });
    const { client, warnings } = observed({ hooks: { onResponse } });
    await create(client);
    await flushRejections();
    await create(client);
    expect(onResponse).toHaveBeenCalledTimes(1);
    expect(turnedOff(warnings)).toHaveLength(1);
    expect(turnedOff(warnings)[0]).toMatch(/hooks\.onResponse .* async sink down/);
  });

  it("a hook whose promise never settles holds nothing up", async () => {
    const onRequest = vi.fn(() => new Promise<void>(() => {}));
    const { client, warnings } = observed({ hooks: { onRequest } });
    await create(client);
    await create(client);
    expect(onRequest).toHaveBeenCalledTimes(2);
    expect(turnedOff(warnings)).toEqual([]);
  });

  it("the API key in a hook's error message is redacted from the warning", async () => {
    const { client, warnings } = observed({
      hooks: {
        onRequest: () => {
          throw new Error(`refused ${service.keys.test}`);
        },
      },
    });
    await create(client);
    expect(turnedOff(warnings)).toHaveLength(1);
    expect(warnings.join("\n")).not.toContain(service.keys.test);
  });

  it("each client has its own: a hook off in one client still runs in another", async () => {
    let fail = true;
    const onRequest = vi.fn(() => {
      if (fail) throw new Error("once");
    });
    const broken = observed({ hooks: { onRequest } });
    await create(broken.client);
    fail = false;
    await create(observed({ hooks: { onRequest } }).client);
    expect(onRequest).toHaveBeenCalledTimes(2);
  });
});

describe("the logger", () => {
  it("a logger that throws is turned off, said once on console.warn, and calls keep their outcome", async () => {
    const consoleWarn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const debug = vi.fn(() => {
      throw new Error("log stream closed");
    });
    const client = new MerchantPaymentsClient({
      apiKey: service.keys.test,
      baseUrl: service.baseUrl,
      merchantId: service.merchantId,
      logger: { debug },
      logLevel: "debug",
    });
    await create(client);
    await create(client);
    expect(debug).toHaveBeenCalledTimes(1);
    expect(consoleWarn).toHaveBeenCalledTimes(1);
    expect(String(consoleWarn.mock.calls[0]?.[0])).toMatch(/the logger is turned off .* log stream closed/);
  });
});

describe("onUpdate", () => {
  /** A client whose payment moves on as it is polled: processing at the 2nd status request, succeeded at the 3rd. */
  async function progressing() {
    let polls = 0;
    let id = "";
    const onRequest = (event: { path: string }) => {
      if (!event.path.endsWith("/status")) return;
      polls++;
      if (polls === 2) service.markProcessing(id);
      if (polls === 3) service.completePayment(id);
    };
    const { client, warnings } = observed({ hooks: { onRequest } });
    id = (await create(client)).id;
    return { client, warnings, id };
  }

  it("an onUpdate that throws does not end the wait: the final status is returned, the failure reported once", async () => {
    const { client, warnings, id } = await progressing();
    const onUpdate = vi.fn(() => {
      throw new Error("ui gone");
    });
    const final = await client.payments.waitForFinal(id, { minIntervalMs: 1, maxWaitMs: 10_000, onUpdate });
    expect(final.status).toBe("succeeded");
    expect(onUpdate).toHaveBeenCalledTimes(1);
    expect(turnedOff(warnings)).toEqual([expect.stringMatching(/onUpdate is turned off .* ui gone/)]);
  });

  it("an onUpdate whose promise never settles does not hold the wait", async () => {
    const { client, id } = await progressing();
    const onUpdate = vi.fn(() => new Promise<void>(() => {}));
    const final = await client.payments.waitForFinal(id, { minIntervalMs: 1, maxWaitMs: 10_000, onUpdate });
    expect(final.status).toBe("succeeded");
    expect(onUpdate).toHaveBeenCalledTimes(3);
  });
});
