/**
 * Runs one example with nothing to configure: `npm run example:express` (`hono`, `setup-merchant`) from the
 * repository root calls this after installing the examples' dependencies.
 *
 * With the three `MERCHANT_PAYMENTS_*` variables set, the example talks to that service (or to a mock you started:
 * `npx merchant-payments-mock`). Without them, a mock service starts in this process on `MOCK_PORT` (default 4010),
 * and the variables are set to its address, test key and merchant; it stops with the example.
 *
 * @module
 */
import { startMockServer } from "merchant-payments/testing";

/** Each example's entry point: a `main()` that starts it. `once`: it finishes its work, then the run ends. */
const EXAMPLES: Record<string, { load: () => Promise<{ main(): Promise<void> }>; once?: boolean }> = {
  express: { load: () => import("./express/server.js") },
  hono: { load: () => import("./hono/server.js") },
  "setup-merchant": { load: () => import("./setup-merchant.js"), once: true },
};

/** The merchant the setup example creates when none is configured: a test-network USDC settlement. */
const SETUP_DEFAULTS = {
  MERCHANT_NAME: "Acme Store",
  MERCHANT_EMAIL: "ops@acme.example",
  SETTLEMENTS: JSON.stringify([
    {
      asset: "eip155:84532/erc20:0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      destination: "eip155:84532:0x52908400098527886E0F7030069857D2E4169EE7",
    },
  ]),
};

async function run(name: string | undefined): Promise<void> {
  const example = name === undefined ? undefined : EXAMPLES[name];
  if (name === undefined || example === undefined) {
    console.error(`usage: tsx examples/run.ts <${Object.keys(EXAMPLES).join(" | ")}>`);
    process.exit(2);
  }
  let stopMock: (() => Promise<void>) | undefined;
  if (!process.env.MERCHANT_PAYMENTS_BASE_URL) {
    const mock = await startMockServer({ port: Number(process.env.MOCK_PORT ?? 4010), pollInMs: 200 });
    stopMock = () => mock.close();
    process.env.MERCHANT_PAYMENTS_BASE_URL = mock.url;
    process.env.MERCHANT_PAYMENTS_API_KEY = mock.service.keys.test;
    process.env.MERCHANT_PAYMENTS_MERCHANT_ID = mock.service.merchantId;
    console.log(
      `Mock service on ${mock.url} (set MERCHANT_PAYMENTS_BASE_URL and its key to use another service)`,
    );
  }
  if (name === "setup-merchant") {
    for (const [key, value] of Object.entries(SETUP_DEFAULTS)) process.env[key] ??= value;
  }
  const { main } = await example.load();
  await main();
  if (example.once) await stopMock?.();
}

run(process.argv[2]).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
