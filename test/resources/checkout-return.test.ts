/**
 * The checkout return: forged, missing, repeated, encoded-twice and mismatching payment_id values, and
 * a success URL for a payment that failed, all lead to "do not fulfil" (a CheckoutReturnError before any request,
 * or `fulfil: false` from the service's own status). Only the service saying "succeeded" for the order's own
 * payment fulfils.
 */
import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type CheckoutOutcome,
  CheckoutReturnError,
  InputValidationError,
  InternalServerError,
  type VerifyReturnParams,
} from "../../src/index.js";
import { createMockService } from "../../src/testing/msw.js";
import { testClient } from "../helpers/clients.js";
import { useMswServer } from "../helpers/msw.js";
import { settle } from "../helpers/outcomes.js";

const service = createMockService({ pollInMs: 5 });
const _msw = useMswServer(...service.handlers);
afterEach(() => service.clearFaults());

const SUCCESS = "https://shop.example/checkout/success";
const ERROR = "https://shop.example/checkout/error";
const sdk = testClient(service, { maxRetries: 0 });

async function checkout(): Promise<string> {
  const { paymentId } = await sdk.checkout.create({
    referenceId: `order-${Math.random()}`,
    amount: { unit: "iso4217/USD", value: "1999" },
    successUrl: SUCCESS,
    errorUrl: ERROR,
  });
  return paymentId;
}

/** Payments in each state, created once. */
let failed: string;
let succeeded: string;
let pending: string;
let expired: string;
beforeAll(async () => {
  [failed, succeeded, pending, expired] = await Promise.all([checkout(), checkout(), checkout(), checkout()]);
  service.simulateBuyer(failed, { outcome: "failure" });
  service.simulateBuyer(succeeded, { outcome: "success" });
  service.markProcessing(pending);
  service.expirePayment(expired);
});

/** Verifies a return and reports whether anything was asked of the service. */
async function verify(params: VerifyReturnParams) {
  const before = service.requests.length;
  const result = await settle(() => sdk.checkout.verifyReturn(params));
  return { result, requests: service.requests.length - before };
}

/** The return must be refused before any request, with the given problem. */
async function expectRefused(params: VerifyReturnParams, problem: CheckoutReturnError["problem"]) {
  const { result, requests } = await verify(params);
  expect(result.ok, "a tampered return was accepted").toBe(false);
  const error = (result as { error: unknown }).error;
  expect(error).toBeInstanceOf(CheckoutReturnError);
  expect((error as CheckoutReturnError).problem).toBe(problem);
  expect((error as Error).message).toMatch(/do not fulfil/);
  expect(requests).toBe(0);
}

describe("the redirect never decides", () => {
  it("a success URL for a payment that failed: do not fulfil (show_error)", async () => {
    const { result } = await verify({ url: `${SUCCESS}?payment_id=${failed}`, expectedPaymentId: failed });
    expect((result as { value: CheckoutOutcome }).value).toMatchObject({
      fulfil: false,
      next: "show_error",
      status: { status: "failed", isFinal: true },
    });
  });

  it("the URL the portal really sent for a failed payment: do not fulfil", async () => {
    const id = await checkout();
    const redirect = service.simulateBuyer(id, { outcome: "failure" });
    expect(redirect).toBe(`${ERROR}?payment_id=${id}`);
    const { result } = await verify({ url: redirect!, expectedPaymentId: id });
    expect((result as { value: CheckoutOutcome }).value.fulfil).toBe(false);
  });

  it.each([
    ["processing", () => pending, "keep_waiting"],
    ["expired", () => expired, "show_expiry"],
  ] as const)("a success URL for a payment that is %s: do not fulfil", async (_state, id, next) => {
    const { result } = await verify({ url: `${SUCCESS}?payment_id=${id()}`, expectedPaymentId: id() });
    expect((result as { value: CheckoutOutcome }).value).toMatchObject({ fulfil: false, next });
  });

  it("an error URL for a payment that succeeded: fulfil (the service decides, not the URL)", async () => {
    const { result } = await verify({
      url: `${ERROR}?payment_id=${succeeded}`,
      expectedPaymentId: succeeded,
    });
    expect((result as { value: CheckoutOutcome }).value).toMatchObject({ fulfil: true, next: "fulfil" });
  });

  it("a status the service cannot give right now: a typed error, never an outcome", async () => {
    service.injectFault({
      type: "serverError",
      status: 503,
      path: `/v1/merchant/payment/${succeeded}/status`,
    });
    const { result } = await verify({
      url: `${SUCCESS}?payment_id=${succeeded}`,
      expectedPaymentId: succeeded,
    });
    expect((result as { error: unknown }).error).toBeInstanceOf(InternalServerError);
  });

  it("waiting for the final status of a payment that then fails: do not fulfil", async () => {
    const id = await checkout();
    setTimeout(() => service.simulateBuyer(id, { outcome: "failure" }), 30);
    const { result } = await verify({
      url: `${SUCCESS}?payment_id=${id}`,
      expectedPaymentId: id,
      wait: { minIntervalMs: 5, maxWaitMs: 5_000 },
    });
    expect((result as { value: CheckoutOutcome }).value).toMatchObject({ fulfil: false, next: "show_error" });
  });
});

describe("a tampered payment_id is refused before anything is asked", () => {
  it("forged: the id of another (succeeded) payment on the order of a failed one", async () => {
    await expectRefused(
      { url: `${SUCCESS}?payment_id=${succeeded}`, expectedPaymentId: failed },
      "payment_id_mismatch",
    );
  });

  it.each([
    ["no query at all", SUCCESS],
    ["another parameter only", `${SUCCESS}?paymentId=PAY`],
    ["the name with another case", `${SUCCESS}?Payment_Id=PAY`],
    ["the id in the fragment", `${SUCCESS}#payment_id=PAY`],
  ])("missing: %s", async (_label, url) => {
    await expectRefused({ url: url.replace("PAY", failed), expectedPaymentId: failed }, "missing_payment_id");
  });

  it.each([
    ["the same id twice", "?payment_id=PAY&payment_id=PAY"],
    ["another id then the order's", "?payment_id=pay_other&payment_id=PAY"],
    ["the order's id then another", "?payment_id=PAY&payment_id=pay_other"],
    ["an empty one besides", "?payment_id=&payment_id=PAY"],
    ["once encoded, once plain", "?payment_%69d=PAY&payment_id=PAY"],
  ])("repeated: %s", async (_label, query) => {
    await expectRefused(
      { url: `${SUCCESS}${query.replaceAll("PAY", failed)}`, expectedPaymentId: failed },
      "duplicated_payment_id",
    );
  });

  it.each([
    [
      "encoded twice",
      (id: string) => encodeURIComponent([...id].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("")),
    ],
    ["upper-cased", (id: string) => id.toUpperCase()],
    ["with a trailing space", (id: string) => `${id}%20`],
    ["with a leading space", (id: string) => `+${id}`],
    ["with a suffix", (id: string) => `${id}x`],
    ["truncated", (id: string) => id.slice(0, -1)],
    ["empty", () => ""],
    ["with a NUL byte", (id: string) => `${id}%00`],
  ])("mismatching: %s", async (_label, transform) => {
    await expectRefused(
      { url: `${SUCCESS}?payment_id=${transform(succeeded)}`, expectedPaymentId: succeeded },
      "payment_id_mismatch",
    );
  });

  it("percent-encoded once is the same id (the URL is decoded once), and the service still decides", async () => {
    const encoded = [...failed].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("");
    const { result } = await verify({ url: `${SUCCESS}?payment_id=${encoded}`, expectedPaymentId: failed });
    expect((result as { value: CheckoutOutcome }).value.fulfil).toBe(false);
  });

  it.each([
    ["an array (Express, repeated)", () => ({ payment_id: [succeeded, succeeded] }), "duplicated_payment_id"],
    ["an object (qs, payment_id[a]=…)", () => ({ payment_id: { a: succeeded } }), "payment_id_mismatch"],
    ["a number", () => ({ payment_id: 42 }), "payment_id_mismatch"],
    ["missing", () => ({ other: succeeded }), "missing_payment_id"],
    ["an empty array", () => ({ payment_id: [] }), "missing_payment_id"],
  ] as const)("a parsed query object with %s", async (_label, query, problem) => {
    await expectRefused({ query: query() as Record<string, unknown>, expectedPaymentId: succeeded }, problem);
  });

  it("refuses an unusable expected id before anything is sent", async () => {
    const before = service.requests.length;
    for (const expectedPaymentId of ["", " ", "..", undefined as unknown as string]) {
      const result = await settle(() =>
        sdk.checkout.verifyReturn({ url: `${SUCCESS}?payment_id=x`, expectedPaymentId }),
      );
      expect((result as { error: unknown }).error).toBeInstanceOf(InputValidationError);
    }
    expect(service.requests.length).toBe(before);
  });

  it("property: whatever the return's query holds, the order of a failed payment is never fulfilled", async () => {
    const value = fc.oneof(
      fc.constantFrom(
        failed,
        succeeded,
        pending,
        "",
        `${failed} `,
        failed.toUpperCase(),
        encodeURIComponent(`%${failed}`),
      ),
      fc.string(),
    );
    const param = fc.oneof(
      value.map((v) => ["payment_id", v] as const),
      fc.tuple(fc.string({ maxLength: 8 }), value),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(param, { maxLength: 5 }),
        fc.constantFrom("url", "query", "object"),
        async (params, form) => {
          const search = new URLSearchParams(params.map(([k, v]) => [k, v]));
          const values = search.getAll("payment_id");
          const input: VerifyReturnParams =
            form === "url"
              ? { url: `${SUCCESS}?${search}`, expectedPaymentId: failed }
              : form === "query"
                ? { query: search.toString(), expectedPaymentId: failed }
                : {
                    query: Object.fromEntries(
                      params
                        .filter(([k]) => k !== "payment_id" || values.length > 0)
                        .map(([k]) => [k, search.getAll(k).length > 1 ? search.getAll(k) : search.get(k)]),
                    ),
                    expectedPaymentId: failed,
                  };
          const { result, requests } = await verify(input);
          if (result.ok) {
            expect(values).toEqual([failed]);
            expect(requests).toBe(1);
            expect(result.value.fulfil).toBe(false);
          } else {
            expect(result.error).toBeInstanceOf(CheckoutReturnError);
            expect(requests).toBe(0);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
