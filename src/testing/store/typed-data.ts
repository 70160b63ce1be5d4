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
    /** Fields of the domain: `name`, `version`, `chainId`, `verifyingContract`. */
    EIP712Domain: {
      /** Field name. */
      name: string;
      /** EIP-712 type of the field, e.g. `uint256`. */
      type: string;
    }[];
    /** Fields of the message: `from`, `to`, `value`, `validAfter`, `validBefore`, `nonce`. */
    ReceiveWithAuthorization: {
      /** Field name. */
      name: string;
      /** EIP-712 type of the field, e.g. `address`. */
      type: string;
    }[];
  };
  /** Always `ReceiveWithAuthorization`. */
  primaryType: "ReceiveWithAuthorization";
  /** Token domain; `verifyingContract` is the token contract. */
  domain: {
    /** Token EIP-712 domain name. */
    name: string;
    /** Token EIP-712 domain version. */
    version: string;
    /** Decimal EVM chain id. */
    chainId: number;
    /** Token contract address. */
    verifyingContract: string;
  };
  /** The authorization; quantities are hex strings. */
  message: {
    /** Buyer address (signer). */
    from: string;
    /** Settlement address (receiver). */
    to: string;
    /** Amount in the token's smallest units, hex. */
    value: string;
    /** Unix seconds after which the authorization is valid, hex. */
    validAfter: string;
    /** Unix seconds before which the authorization is valid, hex. */
    validBefore: string;
    /** 32 random bytes, hex. */
    nonce: string;
  };
}

/** The wallet action the gateway fetch returns. */
export interface MockWalletRpcAction {
  /** Always `walletRpc`. */
  type: "walletRpc";
  /** The RPC call. */
  data: {
    /** CAIP-2 chain id, e.g. `eip155:1`. */
    chain_id: string;
    /** Always `eth_signTypedData_v4`. */
    method: "eth_signTypedData_v4";
    /** The signer address, then the JSON-encoded {@link ReceiveWithAuthorizationTypedData}. */
    params: [string, string];
  };
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
