// The quickstart flow, run inside each runtime against the mock server (started under Node by
// scripts/test-runtimes.mjs): checkout create, return verification, polling to final, a typed API error, an abort,
// the attempt deadline, a too-large body, and no key in an error. Plain JavaScript with web APIs only: the same file
// runs on Bun, Deno, workerd, the edge-runtime VM and a Next.js edge route.
import {
  MerchantPaymentsClient,
  NotFoundError,
  ResponseTooLargeError,
  TimeoutError,
  UserAbortError,
} from "merchant-payments";

/** Runs every step; resolves with `{ ok, steps }` (never rejects: a failed step is reported by name). */
export async function runLane(config) {
  const steps = [];
  const step = async (name, run) => {
    try {
      await run();
      steps.push({ name, ok: true });
    } catch (error) {
      steps.push({ name, ok: false, error: `${error?.name}: ${error?.message}` });
    }
  };
  const { baseUrl, apiKey, merchantId } = config;
  const client = new MerchantPaymentsClient({ apiKey, baseUrl, merchantId, timeoutMs: 5_000 });
  const control = (path, body) =>
    fetch(`${baseUrl}/__mock${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body ?? {}),
    }).then(async (response) => {
      if (!response.ok) throw new Error(`control ${path} answered ${response.status}`);
      return response.json();
    });
  // One answer of this payment's status held for 2 s (a fault for this path only: lanes run side by side).
  const slowStatus = (paymentId) =>
    control("/faults", {
      type: "latency",
      latencyMs: 2_000,
      path: `/v1/merchant/payment/${paymentId}/status`,
    });
  const create = (referenceId) =>
    client.checkout.create({
      referenceId,
      amount: { unit: "iso4217/USD", value: "500" },
      successUrl: "https://shop.example/ok",
      errorUrl: "https://shop.example/ko",
    });

  let paid;
  await step("checkout.create", async () => {
    paid = await create(`order-${Date.now()}`);
    check(
      typeof paid.paymentId === "string" && typeof paid.gatewayUrl === "string",
      "no paymentId/gatewayUrl",
    );
  });
  await step("checkout.verifyReturn", async () => {
    const { redirectUrl } = await control(`/payments/${paid.paymentId}/simulate`, { outcome: "success" });
    const outcome = await client.checkout.verifyReturn({
      url: redirectUrl,
      expectedPaymentId: paid.paymentId,
      wait: { maxWaitMs: 5_000 },
    });
    check(outcome.fulfil === true, `fulfil is ${outcome.fulfil}`);
  });
  await step("waitForFinal", async () => {
    const { paymentId } = await create(`order-poll-${Date.now()}`);
    const waiting = client.checkout.waitForFinal(paymentId, { maxWaitMs: 5_000 });
    await control(`/payments/${paymentId}/complete`);
    const final = await waiting;
    check(final.isFinal === true && final.status === "succeeded", `final is ${final.status}`);
  });
  await step("typed API error", async () => {
    const error = await client.checkout.status("pay_does_not_exist").then(
      () => undefined,
      (e) => e,
    );
    check(error instanceof NotFoundError && error.name === "NotFoundError", `got ${error?.name}`);
    const shown = `${JSON.stringify(error)} ${String(error)} ${error.stack ?? ""}`;
    check(!shown.includes(apiKey), "the key is in the error");
  });
  await step("abort", async () => {
    await slowStatus(paid.paymentId);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await client.checkout.status(paid.paymentId, { signal: controller.signal }).then(
      () => undefined,
      (e) => e,
    );
    check(error instanceof UserAbortError, `got ${error?.name}`);
  });
  await step("attempt deadline", async () => {
    await slowStatus(paid.paymentId);
    const error = await client.checkout.status(paid.paymentId, { timeoutMs: 150, maxRetries: 0 }).then(
      () => undefined,
      (e) => e,
    );
    check(error instanceof TimeoutError, `got ${error?.name}`);
  });
  await step("maxResponseBytes", async () => {
    const small = client.withOptions({ maxResponseBytes: 64 });
    const error = await small.checkout.status(paid.paymentId).then(
      () => undefined,
      (e) => e,
    );
    check(error instanceof ResponseTooLargeError && error.limitBytes === 64, `got ${error?.name}`);
  });
  return { ok: steps.every((s) => s.ok), steps };
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}
