/**
 * `verifyReturn`'s wait against the mock server over HTTP, on real time (issue 25 item 1): a status path that
 * hangs (the mock's `latency` fault, far longer than the wait) still gets the buyer an answer, `keep_waiting`, once
 * the short wait runs out. The client keeps its default 30 s timeout: only the wait's one deadline can end it.
 */
import { describe, expect, it } from "vitest";
import { testClient } from "../helpers/clients.js";
import { useMockServer } from "../helpers/mock-server.js";

const server = useMockServer({ pollInMs: 20 });

describe("verifyReturn against a service that hangs", () => {
  it("answers keep_waiting when the wait runs out, not an error after the client's timeouts", async () => {
    const { service } = server();
    const sdk = testClient(service);
    const { paymentId } = await sdk.checkout.create({
      referenceId: "order-hang",
      amount: { unit: "iso4217/USD", value: "1999" },
      redirects: false,
    });
    // Every status request from now on is held for 10 minutes (released when the server resets after the test).
    service.injectFault({
      type: "latency",
      latencyMs: 600_000,
      rate: 1,
      path: `/v1/merchant/payment/${paymentId}/status`,
    });
    const maxWaitMs = 300;
    const started = performance.now();
    const outcome = await sdk.checkout.verifyReturn({
      url: `/checkout/return?payment_id=${paymentId}`,
      expectedPaymentId: paymentId,
      wait: { maxWaitMs },
    });
    expect(outcome).toEqual({ paymentId, status: undefined, next: "keep_waiting", fulfil: false });
    // Generous: only a wait that outlived its deadline by the client's 30 s timeout could miss it.
    expect(performance.now() - started).toBeLessThan(maxWaitMs + 10_000);
  });
});
