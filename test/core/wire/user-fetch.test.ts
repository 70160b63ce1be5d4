/**
 * a user's own `fetch` sends each attempt exactly once, whatever class its responses are. npm undici's
 * `fetch` answers with its own `Response` class (not the global one); the SDK once sent every such call a second
 * time, keyless, through the global `fetch`, and reported a payment that exists as an AuthenticationError.
 */
import { fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MerchantPaymentsClient } from "../../../src/index.js";
import { type MockServer, startMockServer } from "../../../src/testing/index.js";
import { testClient } from "../../helpers/clients.js";

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(() => server.close());
beforeEach(() => server.service.reset());

function client(fetch: typeof globalThis.fetch): MerchantPaymentsClient {
  return testClient(server.service, { fetch });
}

const apiRequests = () => server.service.requests.filter((r) => r.path.startsWith("/v1/"));
const amount = { unit: "iso4217/USD", value: "1050" };

describe("a user's fetch whose responses are not the global Response (npm undici)", () => {
  it("payments.create() creates exactly one payment, sends one request, and resolves", async () => {
    const created = await client(undiciFetch as unknown as typeof fetch).payments.create({
      referenceId: "order-undici-1",
      amount,
    });
    expect(server.service.payments.map((p) => p.id)).toEqual([created.id]);
    expect(apiRequests().map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v1/payments"]);
  });

  it("payments.status() reads the answer of one request", async () => {
    const sdk = client(undiciFetch as unknown as typeof fetch);
    const created = await sdk.payments.create({ referenceId: "order-undici-2", amount });
    server.service.clearRequests();
    const status = await sdk.payments.status(created.id);
    expect(status.isFinal).toBe(false);
    expect(apiRequests()).toHaveLength(1);
  });

  it("a fetch answering with a Response-like object of its own class is read once", async () => {
    let calls = 0;
    const own: typeof fetch = async (input, init) => {
      calls++;
      const answer = await globalThis.fetch(input, init);
      const text = await answer.text();
      // Same shape as a Response, another class: as other fetch implementations return.
      const body = new Response(text).body;
      return {
        status: answer.status,
        ok: answer.ok,
        headers: answer.headers,
        body,
        text: async () => text,
      } as never;
    };
    const created = await client(own).payments.create({ referenceId: "order-own-1", amount });
    expect(server.service.payments.map((p) => p.id)).toEqual([created.id]);
    expect(calls).toBe(1);
    expect(apiRequests()).toHaveLength(1);
  });
});
