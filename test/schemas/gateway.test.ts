import { describe, expect, it } from "vitest";
import {
  type Action,
  decodeActions,
  type FetchActionInput,
  fetchActionResponseSchema,
  isWalletRpcAction,
  readResponse,
  toFetchActionBody,
  toQuantity,
  unknownField,
} from "../../src/schemas/index.js";
import { inputError } from "../helpers/assertions.js";
import { usdcOnBaseTypedData } from "../helpers/fixtures.js";

const SIGNER = "0x1111111111111111111111111111111111111111";
const typedData = usdcOnBaseTypedData({
  from: SIGNER,
  to: "0x2222222222222222222222222222222222222222",
  validBefore: 0x6995c0c0,
  nonce: `0x${"ff".repeat(32)}`,
});

function walletRpc(params: unknown[], extra: Record<string, unknown> = {}) {
  return {
    type: "walletRpc",
    data: { chain_id: "eip155:8453", method: "eth_signTypedData_v4", params },
    ...extra,
  };
}

function parseActions(actions: unknown[]): Action[] {
  const result = readResponse(fetchActionResponseSchema, { actions }, "strict");
  if (!result.success) throw new Error(JSON.stringify(result.issues));
  return decodeActions(result.data).actions;
}

describe("action fetch input", () => {
  it("sends only the fields given", () => {
    expect(toFetchActionBody({ optionId: "opt_1", data: "abc" })).toEqual({ optionId: "opt_1", data: "abc" });
    expect(toFetchActionBody({ optionId: "opt_1" })).toEqual({ optionId: "opt_1" });
    expect(toFetchActionBody()).toEqual({});
  });

  it.each([
    [{ optionId: "" }, "optionId"],
    [{ data: 5 }, "data"],
    [{ optionId: "o", extra: 1 }, "extra"],
    [null, "input"],
  ])("rejects %j on %s", (input, field) => {
    expect(inputError(() => toFetchActionBody(input as FetchActionInput)).field).toBe(field);
  });
});

describe("walletRpc actions", () => {
  it("decodes eth_signTypedData_v4 typed data with bigint quantities, keeping the raw action", () => {
    const raw = walletRpc([SIGNER, JSON.stringify(typedData)], { label: "Pay with USDC" });
    const [action] = parseActions([raw]);
    if (!action || !isWalletRpcAction(action)) throw new Error("expected a walletRpc action");
    expect(action.data).toEqual(raw.data);
    expect(unknownField(action, "label")).toBe("Pay with USDC");
    expect(action.signer).toBe(SIGNER);
    expect(action.typedData?.primaryType).toBe("ReceiveWithAuthorization");
    expect(action.typedData?.domain.verifyingContract).toBe(typedData.domain.verifyingContract);
    expect(action.quantities).toEqual({
      value: 1_000_000n,
      validAfter: 0n,
      validBefore: 0x6995c0c0n,
      nonce: 2n ** 256n - 1n,
      chainId: 8453n,
    });
  });

  it("narrows on action.type === 'walletRpc'", () => {
    const [action] = parseActions([walletRpc([SIGNER, JSON.stringify(typedData)])]);
    if (action?.type === "walletRpc") {
      expect(action.typedData?.message.value).toBe("0xf4240");
    } else {
      throw new Error("expected a walletRpc action");
    }
  });

  it("accepts a numeric domain chainId", () => {
    const [action] = parseActions([
      walletRpc([SIGNER, JSON.stringify({ ...typedData, domain: { ...typedData.domain, chainId: 8453 } })]),
    ]);
    expect(action?.quantities?.chainId).toBe(8453n);
  });

  it.each([
    ["not JSON", [SIGNER, "{not json"]],
    ["JSON but not typed data", [SIGNER, JSON.stringify({ hello: "world" })]],
    ["no second param", [SIGNER]],
    ["JSON null", [SIGNER, "null"]],
    ["types not an object", [SIGNER, JSON.stringify({ ...typedData, types: [] })]],
    [
      "a struct type that is not a field list",
      [SIGNER, JSON.stringify({ ...typedData, types: { Mail: "x" } })],
    ],
    ["a field without a type", [SIGNER, JSON.stringify({ ...typedData, types: { Mail: [{ name: "to" }] } })]],
    [
      "a domain chainId that is neither number nor string",
      [SIGNER, JSON.stringify({ ...typedData, domain: { chainId: true } })],
    ],
  ])("does not crash on %s: the decoded view is null and the raw action intact", (_label, params) => {
    const raw = walletRpc(params);
    const [action] = parseActions([raw]);
    expect(action?.typedData).toBeNull();
    expect(action?.quantities).toBeNull();
    expect(action?.data).toEqual(raw.data);
  });

  it("gives null quantities when the message is not a receive-with-authorization", () => {
    const permit = { ...typedData, message: { owner: SIGNER, value: "0x1", deadline: "0x2" } };
    const [action] = parseActions([walletRpc([SIGNER, JSON.stringify(permit)])]);
    expect(action?.typedData?.message.owner).toBe(SIGNER);
    expect(action?.quantities).toBeNull();
  });

  it("refuses a walletRpc action that does not have the documented shape", () => {
    const result = readResponse(
      fetchActionResponseSchema,
      {
        actions: [{ type: "walletRpc", data: { chain_id: "eip155:1", method: "x", params: [1] } }],
      },
      "strict",
    );
    expect(result.success).toBe(false);
    if (!result.success)
      expect(result.issues[0]).toEqual({
        path: "actions.0.data.params.0",
        message: "must be a string, got a number",
      });
  });
});

describe("other actions", () => {
  it("keeps an unknown action type as received", () => {
    const other = { type: "redirect", url: "https://wallet.example", nested: { a: 1 } };
    const actions = parseActions([other, walletRpc([SIGNER, "x"])]);
    expect(actions[0]).toEqual(other);
    expect(actions[0] && isWalletRpcAction(actions[0])).toBe(false);
    expect(actions[1]?.type).toBe("walletRpc");
  });

  it("still requires a string type on every action", () => {
    expect(readResponse(fetchActionResponseSchema, { actions: [{ url: "x" }] }, "strict").success).toBe(
      false,
    );
    expect(readResponse(fetchActionResponseSchema, { actions: [{ type: 1 }] }, "strict").success).toBe(false);
    expect(readResponse(fetchActionResponseSchema, {}, "strict").success).toBe(false);
  });
});

describe("toQuantity", () => {
  it.each([
    ["0x0", 0n],
    ["0xFF", 255n],
    ["42", 42n],
    [7, 7n],
    ["0x00000042", 0x42n],
    ["00042", 42n],
    [`0x${"0".repeat(1000)}1`, 1n],
    [`0x${"f".repeat(64)}`, (1n << 256n) - 1n],
    [((1n << 256n) - 1n).toString(), (1n << 256n) - 1n],
  ])("reads %j", (input, expected) => {
    expect(toQuantity(input)).toBe(expected);
  });

  it.each(["0x", "-1", "1.5", "", " 1", 1.5, -1, null, {}, "0xg"])("refuses %j", (input) => {
    expect(toQuantity(input)).toBeUndefined();
  });

  it.each([
    ["2^256", (1n << 256n).toString()],
    ["65 hex digits", `0x1${"0".repeat(64)}`],
    ["79 decimal digits", `1${"0".repeat(78)}`],
    ["a million digits", "9".repeat(1_000_000)],
  ])("refuses a quantity past uint256 (%s)", (_name, input) => {
    expect(toQuantity(input)).toBeUndefined();
  });
});
