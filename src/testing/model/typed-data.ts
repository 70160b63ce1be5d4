/**
 * Builds the wallet action of the mock: an `eth_signTypedData_v4` call over an EIP-3009
 * `ReceiveWithAuthorization` message.
 *
 * @module
 */

import { randomHex } from "./random.js";

/** EIP-712 typed data of a `ReceiveWithAuthorization`. */
export interface ReceiveWithAuthorizationTypedData {
  /** EIP-712 types. */
  types: {
    EIP712Domain: { name: string; type: string }[];
    ReceiveWithAuthorization: { name: string; type: string }[];
  };
  /** Always `ReceiveWithAuthorization`. */
  primaryType: "ReceiveWithAuthorization";
  /** Token domain; `verifyingContract` is the token contract. */
  domain: { name: string; version: string; chainId: number; verifyingContract: string };
  /** The authorization; quantities are hex strings. */
  message: {
    from: string;
    to: string;
    value: string;
    validAfter: string;
    validBefore: string;
    nonce: string;
  };
}

/** The wallet action the gateway fetch returns. */
export interface MockWalletRpcAction {
  /** Always `walletRpc`. */
  type: "walletRpc";
  /** The RPC call. */
  data: { chain_id: string; method: "eth_signTypedData_v4"; params: [string, string] };
}

/** Inputs of {@link buildReceiveWithAuthorization}. */
export interface TypedDataInput {
  /** Decimal EVM chain id. */
  chainId: number;
  /** Token contract. */
  tokenAddress: string;
  /** Token EIP-712 domain name. */
  tokenName: string;
  /** Token EIP-712 domain version. */
  tokenVersion: string;
  /** Buyer address (signer). */
  from: string;
  /** Settlement address (receiver). */
  to: string;
  /** Token smallest units. */
  value: bigint;
  /** Unix seconds. */
  validAfter: number;
  /** Unix seconds. */
  validBefore: number;
}

/** Builds the typed data (nonce: 32 random bytes). */
export function buildReceiveWithAuthorization(input: TypedDataInput): ReceiveWithAuthorizationTypedData {
  return {
    types: {
      EIP712Domain: [
        { name: "name", type: "string" },
        { name: "version", type: "string" },
        { name: "chainId", type: "uint256" },
        { name: "verifyingContract", type: "address" },
      ],
      ReceiveWithAuthorization: [
        { name: "from", type: "address" },
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "validAfter", type: "uint256" },
        { name: "validBefore", type: "uint256" },
        { name: "nonce", type: "bytes32" },
      ],
    },
    primaryType: "ReceiveWithAuthorization",
    domain: {
      name: input.tokenName,
      version: input.tokenVersion,
      chainId: input.chainId,
      verifyingContract: input.tokenAddress,
    },
    message: {
      from: input.from,
      to: input.to,
      value: `0x${input.value.toString(16)}`,
      validAfter: `0x${input.validAfter.toString(16)}`,
      validBefore: `0x${input.validBefore.toString(16)}`,
      nonce: randomHex(32),
    },
  };
}
