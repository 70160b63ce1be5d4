/**
 * The payment options of a payment (one per crypto settlement of its merchant, priced in the token at the
 * mock's own rate) and the wallet action a buyer signs for one of them.
 *
 * @module
 */

import { MockServiceError } from "./errors.js";
import { DEFAULT_DESTINATION_ADDRESS, DEFAULT_TEST_ASSET } from "./seed.js";
import { type MockTokenInfo, tokenFor, toTokenUnits } from "./tokens.js";
import { buildReceiveWithAuthorization, type MockWalletRpcAction } from "./typed-data.js";
import type { MockAmount, MockCryptoSettlement, MockMerchantRecord, MockPaymentRecord } from "./types.js";
import { parseAccount, parseAsset } from "./validation.js";

/** Default buyer address used when a gateway fetch does not name one. */
export const MOCK_BUYER_ADDRESS = "0x000000000000000000000000000000000000B0b0";

/** A payment option of a payment (derived from one crypto settlement of the merchant). */
export interface MockPaymentOption {
  /** The option id: the crypto settlement id (`crypto_…`). */
  optionId: string;
  /** CAIP-19 asset. */
  asset: string;
  /** CAIP-2 chain id. */
  chainId: string;
  /** CAIP-10 settlement destination. */
  destination: string;
  /** Token ticker from the mock's token table. */
  symbol: string;
  /** Token decimals. */
  decimals: number;
  /** Amount to pay in this asset (`caip19/<asset>`, smallest token units), at the mock's own rate. */
  amount: MockAmount;
  /** Whether the mock can build a wallet action for it (EVM `erc20` assets only). */
  actionable: boolean;
}

// Controls work on a merchant without settlements: a success then records a payment in the default test asset.
const NO_SETTLEMENT: MockCryptoSettlement = {
  id: "crypto_none",
  asset: DEFAULT_TEST_ASSET,
  destination: `eip155:84532:${DEFAULT_DESTINATION_ADDRESS}`,
};

/** Works out options and actions with the mock's token table. */
export class PaymentOptions {
  /** Creates it over the extra token table of the options. */
  constructor(private readonly tokens: Readonly<Record<string, MockTokenInfo>> | undefined) {}

  /** The options of a payment: one per crypto settlement of its merchant. */
  of(payment: MockPaymentRecord, merchant: MockMerchantRecord | undefined): MockPaymentOption[] {
    return (merchant?.settlements.crypto ?? []).map((s) => this.fromSettlement(payment, s));
  }

  private fromSettlement(payment: MockPaymentRecord, s: MockCryptoSettlement): MockPaymentOption {
    const parsed = parseAsset(s.asset);
    const token = tokenFor(s.asset, this.tokens);
    const currency = payment.amount.unit.slice("iso4217/".length);
    const units = toTokenUnits(payment.amount.value, currency, token.decimals);
    return {
      optionId: s.id,
      asset: s.asset,
      chainId: typeof parsed === "string" ? "" : parsed.chainId,
      destination: s.destination,
      symbol: token.symbol,
      decimals: token.decimals,
      amount: { unit: `caip19/${s.asset}`, value: units.toString() },
      actionable:
        typeof parsed !== "string" && parsed.chainNamespace === "eip155" && parsed.assetNamespace === "erc20",
    };
  }

  /** Finds an option by id (400 `invalid_option_id` when the merchant has no such settlement). */
  find(options: MockPaymentOption[], optionId: string): MockPaymentOption {
    const option = options.find((o) => o.optionId === optionId);
    if (option) return option;
    throw new MockServiceError(
      400,
      "invalid_option_id",
      `Unknown payment option ${optionId} for this payment.`,
      {
        optionIds: options.map((o) => o.optionId),
      },
    );
  }

  /** The selected option, else the first one, else one in the default test asset. */
  selected(payment: MockPaymentRecord, options: MockPaymentOption[]): MockPaymentOption {
    const chosen = options.find((o) => o.optionId === payment.selectedOptionId) ?? options[0];
    return chosen ?? this.fromSettlement(payment, NO_SETTLEMENT);
  }

  /** The wallet action (EIP-3009 `receiveWithAuthorization` typed data) of an option. */
  action(payment: MockPaymentRecord, option: MockPaymentOption, buyer: string): MockWalletRpcAction {
    if (!option.actionable) {
      throw new MockServiceError(
        422,
        "unsupported_payment_option",
        `The mock cannot build an action for ${option.asset}.`,
      );
    }
    const asset = parseAsset(option.asset);
    const dest = parseAccount(option.destination);
    if (typeof asset === "string" || typeof dest === "string") {
      throw new MockServiceError(500, "internal_error", "stored settlement is invalid");
    }
    const token = tokenFor(option.asset, this.tokens);
    const typed = buildReceiveWithAuthorization({
      chainId: Number(asset.chainReference),
      tokenAddress: asset.assetReference,
      tokenName: token.name,
      tokenVersion: token.version,
      from: buyer,
      to: dest.address,
      value: BigInt(option.amount.value),
      validAfter: 0,
      validBefore: Math.floor(payment.expiresAt / 1000),
    });
    return {
      type: "walletRpc",
      data: {
        chain_id: asset.chainId,
        method: "eth_signTypedData_v4",
        params: [buyer, JSON.stringify(typed)],
      },
    };
  }
}
