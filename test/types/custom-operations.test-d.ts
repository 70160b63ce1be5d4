import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import * as zm from "zod/mini";
import type { APIPromise, JsonValue, MerchantPaymentsClient, WithRequestId } from "../../src/index.js";

declare const client: MerchantPaymentsClient;

describe("client.request()", () => {
  it("resolves to the output of the response schema (zod or zod/mini)", () => {
    const refund = z.object({ id: z.string(), amount: z.number().optional() });
    const promise = client.request({ method: "POST", path: "/v1/refunds", body: { a: 1 }, response: refund });
    expectTypeOf(promise).toEqualTypeOf<APIPromise<{ id: string; amount?: number | undefined }>>();
    const mini = client.request({ method: "GET", path: "/v1/x", response: zm.object({ n: zm.number() }) });
    expectTypeOf(mini).resolves.toEqualTypeOf<WithRequestId<{ n: number }>>();
  });

  it("resolves to JSON, not any, without a schema", () => {
    const promise = client.request({ method: "GET", path: "/v1/merchants/{id}", params: { id: "m" } });
    expectTypeOf(promise).resolves.toEqualTypeOf<WithRequestId<JsonValue | undefined>>();
    expectTypeOf(promise).resolves.not.toBeAny();
  });

  it("refuses methods, params and queries of the wrong type at compile time", () => {
    // @ts-expect-error HEAD is not a method of an operation
    void client.request({ method: "HEAD", path: "/v1/x" });
    // @ts-expect-error a param value is a string
    void client.request({ method: "GET", path: "/v1/{id}", params: { id: 1 } });
    // @ts-expect-error a query value is a string, number or boolean
    void client.request({ method: "GET", path: "/v1/x", query: { filter: { a: 1 } } });
    // @ts-expect-error idempotency is "always" or "given"
    void client.request({ method: "POST", path: "/v1/x", idempotency: "never" });
  });
});
