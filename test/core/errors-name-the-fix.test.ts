/**
 * Errors name the fix (issue #28): a `ConnectionError` says which host and port it tried and whether TLS was tried
 * (https against a plain-http server says so), and a validation error's message carries its first "did you mean",
 * not only `issues`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectionError, InputValidationError, MerchantPaymentsClient, money } from "../../src/index.js";
import { type MockServer, startMockServer } from "../../src/testing/index.js";

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
});
afterAll(async () => {
  await mock?.close();
});

const clientAt = (baseUrl: string) =>
  new MerchantPaymentsClient({
    apiKey: mock.service.keys.test,
    baseUrl,
    merchantId: mock.service.merchantId,
    maxRetries: 0,
  });

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a failure");
}

/** A port nothing listens on: one a server had, then gave back. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("ConnectionError names where it went", () => {
  it("names the host and port of a refused connection, and that it was plain http", async () => {
    const port = await closedPort();
    const error = await failureOf(clientAt(`http://127.0.0.1:${port}`).merchants.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.message).not.toMatch(/TLS/);
  });

  it("says that TLS was tried when https reaches a plain-http server, and names the fix", async () => {
    const url = new URL(mock.url);
    const error = await failureOf(clientAt(`https://127.0.0.1:${url.port}`).merchants.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toContain(`127.0.0.1:${url.port}`);
    expect(error.message).toMatch(/TLS/);
    expect(error.message).toContain(`http://127.0.0.1:${url.port}`);
  });

  it("never shows the key", async () => {
    const port = await closedPort();
    const error = await failureOf(clientAt(`http://127.0.0.1:${port}`).merchants.list());
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(mock.service.keys.test);
  });
});

describe("a validation error's message carries its first 'did you mean'", () => {
  it("a misspelt required field", async () => {
    const input = {
      referenceId: "order-1",
      amount: money("5", "USD"),
      sucessUrl: "https://shop.example/ok",
      errorUrl: "https://shop.example/ko",
    };
    const error = await failureOf(clientAt(mock.url).checkout.create(input as never));
    expect(error).toBeInstanceOf(InputValidationError);
    expect(error.message).toMatch(/did you mean successUrl\?/);
    expect(error.message).not.toMatch(/1 more problems/);
  });

  it("a 'did you mean' that is not the first problem", () => {
    const error = new InputValidationError([
      { field: "amount", message: "amount is required" },
      { field: "options.timeoutMs", message: "options.timeoutMs must be a number, got a string" },
      {
        field: "options.idempotencyKy",
        message: "options.idempotencyKy is not an option: did you mean idempotencyKey?",
      },
    ]);
    expect(error.message).toMatch(/^amount is required/);
    expect(error.message).toMatch(/did you mean idempotencyKey\?/);
    expect(error.message).toMatch(/and 1 more problem\b/);
  });
});
