import { describe, expect, it } from "vitest";
import {
  type Action,
  type FetchActionInput,
  InputValidationError,
  isWalletRpcAction,
  ResponseValidationError,
  unknownField,
} from "../../src/index.js";
import { failure } from "../helpers/assertions.js";
import { testClient as client } from "../helpers/clients.js";
import { usdcOnBaseTypedData } from "../helpers/fixtures.js";
import { BASE_URL, json, useRecordingServer } from "../helpers/recording-server.js";

const mock = useRecordingServer();

const FETCH_PATH = "/v1/gateway/payment/pay_1/fetch";
const BUYER = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const MERCHANT_WALLET = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
const NONCE = "0x8f3c1b0a6e2d4c5b9a7f1e3d2c4b6a8f0e1d3c5b7a9f2e4d6c8b0a1f3e5d7c9b";

/** EIP-3009 `receiveWithAuthorization` typed data for 1 USDC on Base, as a wallet would sign it. */
const TYPED_DATA = usdcOnBaseTypedData({
  from: BUYER,
  to: MERCHANT_WALLET,
  validBefore: 0x699f1a80,
  nonce: NONCE,
});

const WALLET_RPC = {
  type: "walletRpc",
  data: {
    chain_id: "eip155:8453",
    method: "eth_signTypedData_v4",
    params: [BUYER, JSON.stringify(TYPED_DATA)],
  },
};

describe("gateway.fetchAction", () => {
  it("POSTs {optionId, data} to /v1/gateway/payment/{id}/fetch", async () => {
    mock.respond(json({ actions: [] }));
    const result = await client().gateway.fetchAction("pay_1", { optionId: "opt_usdc_base", data: "abc" });
    const [request] = mock.requests;
    expect(request?.method).toBe("POST");
    expect(request?.url.href).toBe(`${BASE_URL}${FETCH_PATH}`);
    expect(request?.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual({ optionId: "opt_usdc_base", data: "abc" });
    expect(result).toEqual({ actions: [] });
  });

  it("sends only the fields given", async () => {
    mock.respond(json({ actions: [] }));
    await client().gateway.fetchAction("pay_1", { optionId: "opt_1" });
    await client().gateway.fetchAction("pay_1", { data: "d" });
    await client().gateway.fetchAction("pay_1");
    expect(mock.requests.map((r) => JSON.parse(r.body))).toEqual([{ optionId: "opt_1" }, { data: "d" }, {}]);
  });

  it.each([
    [{ optionId: "" }, "optionId"],
    [{ optionId: "   " }, "optionId"],
    [{ data: 42 }, "data"],
    [{ optionId: "opt_1", option: "x" }, "option"],
  ])("refuses %j on %s and sends nothing", async (input, field) => {
    const error = await failure(() =>
      client().gateway.fetchAction("pay_1", input as unknown as FetchActionInput),
    );
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).field).toBe(field);
    expect(mock.requests).toHaveLength(0);
  });

  it.each(["", ".", ".."])("refuses payment id %j", async (id) => {
    const error = await failure(() => client().gateway.fetchAction(id));
    expect((error as InputValidationError).field).toBe("paymentId");
    expect(mock.requests).toHaveLength(0);
  });

  it("encodes / ? # in the payment id", async () => {
    mock.respond(json({ actions: [] }));
    await client().gateway.fetchAction("pay/1?a#b");
    expect(mock.requests[0]?.url.pathname).toBe("/v1/gateway/payment/pay%2F1%3Fa%23b/fetch");
  });
});

describe("actions", () => {
  it("decodes a walletRpc action's EIP-3009 typed data, quantities as bigint, and keeps the raw data", async () => {
    mock.respond(json({ actions: [WALLET_RPC] }));
    const { actions } = await client().gateway.fetchAction("pay_1", { optionId: "opt_1" });
    expect(actions).toHaveLength(1);
    const action = actions[0] as Action;
    expect(isWalletRpcAction(action)).toBe(true);
    if (!isWalletRpcAction(action)) return;
    expect(action.type).toBe("walletRpc");
    expect(action.data).toEqual(WALLET_RPC.data);
    expect(action.data.params[1]).toBe(JSON.stringify(TYPED_DATA));
    expect(action.signer).toBe(BUYER);
    expect(action.typedData).toEqual(TYPED_DATA);
    expect(action.typedData?.primaryType).toBe("ReceiveWithAuthorization");
    expect(action.quantities).toEqual({
      value: 1_000_000n,
      validAfter: 0n,
      validBefore: 1_772_034_688n,
      nonce: BigInt(NONCE),
      chainId: 8453n,
    });
    expect(typeof action.quantities?.nonce).toBe("bigint");
    expect(action.quantities?.nonce).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
  });

  it("reads decimal and numeric quantities too", async () => {
    const typedData = {
      ...TYPED_DATA,
      domain: { ...TYPED_DATA.domain, chainId: 8453 },
      message: { ...TYPED_DATA.message, value: "1000000", validAfter: 0, validBefore: "1772034688" },
    };
    const action = {
      ...WALLET_RPC,
      data: { ...WALLET_RPC.data, params: [BUYER, JSON.stringify(typedData)] },
    };
    mock.respond(json({ actions: [action] }));
    const [decoded] = (await client().gateway.fetchAction("pay_1")).actions;
    expect(decoded?.quantities).toEqual({
      value: 1_000_000n,
      validAfter: 0n,
      validBefore: 1_772_034_688n,
      nonce: BigInt(NONCE),
      chainId: 8453n,
    });
  });

  it("gives null quantities, and keeps the action, when a quantity does not fit a uint256", async () => {
    // A million digits fit in a 1 MiB answer: refused before BigInt reads them, not after a quarter-second parse.
    for (const value of [(1n << 256n).toString(), `0x1${"0".repeat(64)}`, "9".repeat(1_000_000)]) {
      const typedData = { ...TYPED_DATA, message: { ...TYPED_DATA.message, value } };
      const action = {
        ...WALLET_RPC,
        data: { ...WALLET_RPC.data, params: [BUYER, JSON.stringify(typedData)] },
      };
      mock.respond(json({ actions: [action] }));
      const [decoded] = (await client().gateway.fetchAction("pay_1")).actions;
      expect(decoded).toMatchObject({ ...action, signer: BUYER, typedData, quantities: null });
    }
  });

  it("gives a null decoded view when params[1] nests deeper than an answer may", async () => {
    // Parsed, it would make typedData a value that JSON.stringify (relaying it to a wallet) fails on with RangeError.
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const inner = JSON.stringify(TYPED_DATA).replace('"message":{', `"message":{"deep":${deep},`);
    const action = { ...WALLET_RPC, data: { ...WALLET_RPC.data, params: [BUYER, inner] } };
    mock.respond(json({ actions: [action] }));
    const [decoded] = (await client().gateway.fetchAction("pay_1")).actions;
    expect(decoded).toMatchObject({ ...action, signer: BUYER, typedData: null, quantities: null });
  });

  it("keeps a walletRpc action whose params[1] is not typed data, with a null decoded view", async () => {
    const action = {
      type: "walletRpc",
      data: { chain_id: "eip155:8453", method: "eth_sendTransaction", params: [BUYER, "not json"] },
    };
    mock.respond(json({ actions: [action] }));
    const [decoded] = (await client().gateway.fetchAction("pay_1")).actions;
    expect(decoded).toMatchObject({ ...action, signer: BUYER, typedData: null, quantities: null });
  });

  it("returns an unknown action type as sent, next to a known one, with extra fields everywhere", async () => {
    const unknown = { type: "redirect", url: "https://wallet.example/deeplink", meta: { ttl: 30 } };
    const walletRpc = { ...WALLET_RPC, hint: "sign in wallet" };
    mock.respond(json({ actions: [unknown, walletRpc], expiresInMs: 60_000 }));
    const result = await client().gateway.fetchAction("pay_1");
    expect(unknownField(result, "expiresInMs")).toBe(60_000);
    expect(result.actions[0]).toEqual(unknown);
    expect(isWalletRpcAction(result.actions[0] as Action)).toBe(false);
    expect(result.actions[1]).toMatchObject({ hint: "sign in wallet", signer: BUYER });
  });

  it.each([
    ["a walletRpc action without data", { type: "walletRpc" }],
    ["a walletRpc action without params", { type: "walletRpc", data: { chain_id: "eip155:1", method: "m" } }],
    [
      "a walletRpc action with numeric params",
      { type: "walletRpc", data: { chain_id: "eip155:1", method: "m", params: [1] } },
    ],
    ["an action without a type", { data: {} }],
  ])("refuses %s as a ResponseValidationError", async (_label, action) => {
    mock.respond(json({ actions: [action] }));
    const error = await failure(() => client().gateway.fetchAction("pay_1"));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).rawBody).toEqual({ actions: [action] });
  });

  it("refuses a body without an actions array", async () => {
    mock.respond(json({ action: WALLET_RPC }));
    expect(await failure(() => client().gateway.fetchAction("pay_1"))).toBeInstanceOf(
      ResponseValidationError,
    );
  });
});
