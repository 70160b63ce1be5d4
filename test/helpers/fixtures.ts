/** Response bodies and identifiers the service-facing tests share. */
import { buildReceiveWithAuthorization } from "../../src/testing/store/typed-data.js";

export const CREATED_AT = "2026-02-19T10:00:00.000Z";

/** USDC's token contract on Base. */
export const USDC_BASE_CONTRACT = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
/** USDC on Base as a CAIP-19 asset id. */
export const USDC_BASE = `eip155:8453/erc20:${USDC_BASE_CONTRACT}`;
/** A settlement wallet on Base as a CAIP-10 account id. */
export const DEST_BASE = "eip155:8453:0x1111111111111111111111111111111111111111";

/** A merchant as `merchants.retrieve` answers it, with no email, icon or settlements. */
export const MERCHANT = {
  id: "mrch_1",
  name: "Shop",
  email: null,
  status: "active",
  iconUrl: null,
  createdAt: CREATED_AT,
  settlements: { crypto: [], fiat: [] },
};

/** The answer of `merchants.create` for {@link MERCHANT}. */
export const CREATED_MERCHANT = {
  merchant: { id: "mrch_1", name: "Shop", email: null, status: "active", createdAt: CREATED_AT },
};

/** The answer of `payments.cancel` for `pay_1`. */
export const CANCELLED = {
  cancelledAt: CREATED_AT,
  cancelledReason: "cancelled_by_merchant",
  paymentId: "pay_1",
  status: "cancelled",
};

/** A final `succeeded` status of `pay_1`, paid with 10.5 USDC on Base. */
export const SUCCEEDED = {
  status: "succeeded",
  isFinal: true,
  pollInMs: null,
  info: { txId: "test:pay_1", optionAmount: { unit: `caip19/${USDC_BASE}`, value: "10500000" } },
};

/** A status body that is not final and asks to poll again in `pollInMs`. */
export const pending = (status: string, pollInMs: number | null = 1) => ({
  status,
  isFinal: false,
  pollInMs,
});

/** A final status body without details. */
export const final = (status: string) => ({ status, isFinal: true, pollInMs: null });

/**
 * EIP-3009 `ReceiveWithAuthorization` typed data for 1 USDC on Base, as a wallet would sign it: built by the mock
 * service, with the chain id as a hex quantity and a fixed nonce.
 */
export function usdcOnBaseTypedData(message: {
  from: string;
  to: string;
  validBefore: number;
  nonce: string;
}) {
  const built = buildReceiveWithAuthorization({
    chainId: 8453,
    tokenAddress: USDC_BASE_CONTRACT,
    tokenName: "USD Coin",
    tokenVersion: "2",
    from: message.from,
    to: message.to,
    value: 1_000_000n,
    validAfter: 0,
    validBefore: message.validBefore,
  });
  return {
    ...built,
    domain: { ...built.domain, chainId: "0x2105" },
    message: { ...built.message, nonce: message.nonce },
  };
}
