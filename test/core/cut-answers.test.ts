/**
 * What a `ResponseValidationError` means for retries (issue 25, item 8): a 2xx whose body was cut off in transit is a
 * lost answer, retried where repeating is safe (every POST is keyed: the service replays the one it made); a 2xx that
 * arrived whole in the wrong shape is what the service sent, so it is never retried.
 */
import { describe, expect, it } from "vitest";
import { MerchantPaymentsClient, ResponseValidationError } from "../../src/index.js";
import { useFaultServer } from "../helpers/fault-server.js";
import { settle } from "../helpers/outcomes.js";
import { SECRET_KEY } from "../helpers/secrets.js";

const server = useFaultServer();
const CREATED = { id: "pay_1", link: "https://pay.example/p/pay_1", status: "requires_action" };
const AMOUNT = { unit: "iso4217/USD", value: "1050" };

function client() {
  return new MerchantPaymentsClient({
    apiKey: SECRET_KEY,
    baseUrl: server.url,
    merchantId: "mrch_cut",
    maxRetries: 2,
    retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 20 },
  });
}

describe("a 2xx POST answer: cut in transit, or whole in the wrong shape", () => {
  it("cut off mid-body: retried under the same Idempotency-Key, and the replayed answer is the result", async () => {
    await server.reset();
    server.script(
      { kind: "truncate", status: 201, body: JSON.stringify(CREATED) },
      { kind: "json", status: 201, body: CREATED },
    );
    const created = await client().payments.create({ referenceId: "order-cut", amount: AMOUNT });
    expect(created.id).toBe("pay_1");
    expect(server.requests).toHaveLength(2);
    const keys = new Set(server.requests.map((r) => r.headers["idempotency-key"]));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toEqual(expect.any(String));
  });

  it("cut off on every attempt: a ResponseValidationError once the retries are spent, all under one key", async () => {
    await server.reset();
    server.script({ kind: "truncate", status: 201, body: JSON.stringify(CREATED) });
    const result = await settle(() => client().payments.create({ referenceId: "order-cut", amount: AMOUNT }));
    expect((result as { error: unknown }).error).toBeInstanceOf(ResponseValidationError);
    expect(server.requests).toHaveLength(3);
    expect(new Set(server.requests.map((r) => r.headers["idempotency-key"])).size).toBe(1);
  });

  it("whole, in the wrong shape: a ResponseValidationError, sent once", async () => {
    await server.reset();
    server.script({ kind: "json", status: 201, body: { unexpected: true } });
    const result = await settle(() => client().payments.create({ referenceId: "order-odd", amount: AMOUNT }));
    expect((result as { error: unknown }).error).toBeInstanceOf(ResponseValidationError);
    expect(server.requests).toHaveLength(1);
  });
});
