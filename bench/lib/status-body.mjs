import { ANSWER_HEADERS } from "./fixtures.mjs";

// The ~600-byte payment status the fixed server answers with (valid for the SDK's status schema).
const USDC = "eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
export const STATUS_BODY = JSON.stringify({
  status: "succeeded",
  isFinal: true,
  pollInMs: null,
  info: {
    txId: "0x9f2c4e1b7a3d5c8e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708",
    optionAmount: { unit: `caip19/${USDC}`, value: "10500000" },
    optionId: "crypto_8Hk2mQ7xVb3nR5tW",
    network: "eip155:8453",
    payer: "eip155:8453:0x4b0897b0513fdC7C541B6d9D7E929C4e5364D2dB",
    destination: "eip155:8453:0x71C7656EC7ab88b098defB751B7401B5f6d8976F",
    confirmations: 12,
    blockNumber: 28410567,
    settledAt: "2026-02-19T10:42:17.381Z",
    fee: { unit: "iso4217/USD", value: "3" },
    referenceId: "order-0000042",
    memo: "Checkout for order 0000042 (2 items)",
  },
});

/** The payment creation answer (201) of the fixed server and of the in-memory `fetch`. */
export const CREATE_BODY = JSON.stringify({
  id: "pay_gE4K0FQ33S2rDKWyPDWCQfR0",
  paymentLink: "https://pay.example/portal/pay_gE4K0FQ33S2rDKWyPDWCQfR0",
  status: "requires_action",
  referenceId: "order-0000042",
  amount: { unit: "iso4217/USD", value: "1999" },
  expiresAt: "2026-02-19T11:00:00.000Z",
});

/** A `fetch` answering from memory: the status body for a GET, the creation answer for a POST. */
export const memoryFetch = async (_url, init) =>
  init?.method === "POST"
    ? new Response(CREATE_BODY, { status: 201, headers: ANSWER_HEADERS })
    : new Response(STATUS_BODY, { status: 200, headers: ANSWER_HEADERS });
