import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ClientOptions, ConnectionError, MerchantPaymentsClient } from "merchant-payments";
import { createMockService, DEFAULT_TEST_ASSET } from "merchant-payments/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MerchantConfig, setupMerchant } from "../../examples/setup-merchant.js";

// The mock answers through its own fetch function here: no MSW, no port.
const mock = createMockService();
const client = (options: ClientOptions = {}) =>
  new MerchantPaymentsClient({
    apiKey: mock.keys.test,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    ...options,
  });

const ADDRESS_A = "eip155:84532:0x1111111111111111111111111111111111111111";
const ADDRESS_B = "eip155:84532:0x2222222222222222222222222222222222222222";
const OTHER_ASSET = "eip155:1/erc20:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const OTHER_DESTINATION = "eip155:1:0x3333333333333333333333333333333333333333";

let dir: string;
beforeEach(async () => {
  mock.reset();
  dir = await mkdtemp(join(tmpdir(), "setup-merchant-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const named = (name: string) => mock.merchants.filter((m) => m.name === name);
const merchantCreations = () =>
  mock.requests.filter((r) => r.method === "POST" && r.path === "/v1/merchants");

describe("examples/setup-merchant", () => {
  it("run twice: one merchant, and a changed destination is updated, not duplicated", async () => {
    const config: MerchantConfig = {
      name: "Acme Store",
      email: "billing@acme.example",
      settlements: [{ asset: DEFAULT_TEST_ASSET, destination: ADDRESS_A }],
      stateFile: join(dir, "state.json"),
    };
    const first = await setupMerchant(client(), config);
    expect(first.settlements).toEqual([
      {
        id: expect.stringMatching(/^crypto_/),
        asset: DEFAULT_TEST_ASSET,
        destination: ADDRESS_A,
        action: "created",
      },
    ]);

    const second = await setupMerchant(client(), {
      ...config,
      settlements: [
        { asset: DEFAULT_TEST_ASSET, destination: ADDRESS_B },
        { asset: OTHER_ASSET, destination: OTHER_DESTINATION },
      ],
    });
    expect(second.merchantId).toBe(first.merchantId);
    expect(second.settlements.map((s) => s.action)).toEqual(["updated", "created"]);
    expect(second.settlements[0]?.id).toBe(first.settlements[0]?.id);

    const [merchant, ...others] = named("Acme Store");
    expect(others).toEqual([]);
    expect(merchant?.settlements.crypto).toEqual([
      { id: first.settlements[0]?.id, asset: DEFAULT_TEST_ASSET, destination: ADDRESS_B },
      { id: second.settlements[1]?.id, asset: OTHER_ASSET, destination: OTHER_DESTINATION },
    ]);
    // The second run read the merchant id from the state file: it did not even try to create one.
    expect(merchantCreations()).toHaveLength(1);
    const saved = JSON.parse(await readFile(join(dir, "state.json"), "utf8"));
    expect(saved).toEqual({
      "test:Acme Store": { idempotencyKey: expect.any(String), merchantId: first.merchantId },
    });

    const third = await setupMerchant(client(), { ...config, settlements: [config.settlements[0]!] });
    expect(third.settlements[0]?.action).toBe("updated"); // back to ADDRESS_A
    const again = await setupMerchant(client(), { ...config, settlements: [config.settlements[0]!] });
    expect(again.settlements[0]?.action).toBe("unchanged");
  });

  it("without a state file, the key derived from the name makes a re-run replay the creation", async () => {
    const config = {
      name: "Stateless Shop",
      email: "ops@stateless.example",
      settlements: [{ asset: DEFAULT_TEST_ASSET, destination: ADDRESS_A }],
    };
    const first = await setupMerchant(client(), config);
    const second = await setupMerchant(client(), config);
    expect(second.merchantId).toBe(first.merchantId);
    expect(named("Stateless Shop")).toHaveLength(1);
    const keys = merchantCreations().map((r) => r.headers["idempotency-key"]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(second.settlements[0]?.action).toBe("unchanged");
  });

  it("a run that crashed after the service created the merchant is resumed with the same key", async () => {
    const stateFile = join(dir, "nested", "state.json");
    const config = {
      name: "Crashy Shop",
      email: "ops@crashy.example",
      settlements: [{ asset: DEFAULT_TEST_ASSET, destination: ADDRESS_A }],
      stateFile,
    };
    // The service creates the merchant, then the answer is lost; no retry in this run.
    mock.injectFault({ type: "drop", method: "POST", path: "/v1/merchants", after: true });
    await expect(setupMerchant(client({ maxRetries: 0 }), config)).rejects.toBeInstanceOf(ConnectionError);
    expect(named("Crashy Shop")).toHaveLength(1);

    const resumed = await setupMerchant(client(), config);
    expect(named("Crashy Shop").map((m) => m.id)).toEqual([resumed.merchantId]);
    const keys = new Set(merchantCreations().map((r) => r.headers["idempotency-key"]));
    expect(keys.size).toBe(1);
  });

  it("explains a reused name with other details instead of creating a second merchant", async () => {
    await setupMerchant(client(), { name: "Renamed", email: "a@shop.example", settlements: [] });
    await expect(
      setupMerchant(client(), { name: "Renamed", email: "b@shop.example", settlements: [] }),
    ).rejects.toThrow(/already created with other details/);
    expect(named("Renamed")).toHaveLength(1);
  });
});
