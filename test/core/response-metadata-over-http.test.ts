/** Response metadata against the bundled mock over loopback HTTP: replays and request ids as a merchant sees them. */
import { describe, expect, it } from "vitest";
import { MerchantPaymentsClient } from "../../src/index.js";
import { useMockServer } from "../helpers/mock-server.js";

const server = useMockServer();

describe("response metadata from the mock", () => {
  it("says whether an idempotent call was replayed, and gives the mock's request id", async () => {
    const sdk = new MerchantPaymentsClient({ apiKey: server().service.keys.test, baseUrl: server().url });
    const first = await sdk.merchants
      .create({ name: "Shop", email: "ops@shop.example" }, { idempotencyKey: "merchant-1" })
      .withResponse();
    const again = await sdk.merchants
      .create({ name: "Shop", email: "ops@shop.example" }, { idempotencyKey: "merchant-1" })
      .withResponse();
    expect(first.response.idempotentReplayed).toBe(false);
    expect(again.response.idempotentReplayed).toBe(true);
    expect(again.data.id).toBe(first.data.id);
    expect(first.response.requestId).toMatch(/^req_/);
    expect(first.data._requestId).toBe(first.response.requestId);
    expect(again.response.requestId).not.toBe(first.response.requestId);
  });
});
