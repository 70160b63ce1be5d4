/**
 * Seed data: accounts with known keys, merchants and their settlements.
 *
 * @module
 */

import type { MockAppCredentials, MockMerchantStatus, MockMode } from "./types.js";

/** A crypto settlement to seed. */
export interface MockSeedCryptoSettlement {
  /** `crypto_…`; generated when omitted. */
  id?: string;
  /** CAIP-19 asset id. */
  asset: string;
  /** CAIP-10 account on the same chain. */
  destination: string;
}

/** A fiat settlement to seed (the only way fiat settlements exist in the mock). */
export interface MockSeedFiatSettlement {
  /** `fiat_…`; generated when omitted. */
  id?: string;
  /** Free string, e.g. `active`. */
  status: string;
  /** Free string, e.g. `iban`. */
  bankType: string;
}

/** A merchant to seed. */
export interface MockSeedMerchant {
  /** `mrch_…`; generated when omitted. */
  id?: string;
  /** The mode the merchant exists in; default `test`. */
  mode?: MockMode;
  /** Display name. */
  name: string;
  /** Contact e-mail; default null. */
  email?: string | null;
  /** Logo URL; default null. */
  iconUrl?: string | null;
  /** Default `active`. */
  status?: MockMerchantStatus;
  /** Crypto settlements. */
  crypto?: MockSeedCryptoSettlement[];
  /** Fiat settlements. */
  fiat?: MockSeedFiatSettlement[];
}

/** An account to seed. Keys that are omitted are generated (and kept across `reset()`). */
export interface MockSeedAccount {
  /** `acct_…`; generated when omitted. */
  id?: string;
  /** Known credentials. `test` must start with `<prefix>_test_`, `live` with `<prefix>_` (and not `<prefix>_test_`). */
  keys?: {
    /** Test-mode API key, `<prefix>_test_…`. */
    test?: string;
    /** Live-mode API key, `<prefix>_…`. */
    live?: string;
    /** App-Id + Client-Id pairs per mode. */
    app?: {
      /** App-Id + Client-Id for test mode. */
      test?: MockAppCredentials;
      /** App-Id + Client-Id for live mode. */
      live?: MockAppCredentials;
    };
  };
  /** Merchants of the account. */
  merchants?: MockSeedMerchant[];
}

/** Seed of the whole mock. The first account is the "default" one exposed as `keys` / `merchantId`. */
export interface MockSeed {
  /** Accounts, at least one. */
  accounts: MockSeedAccount[];
}

/** Test-mode settlement of the default seed: USDC on Base Sepolia. */
export const DEFAULT_TEST_ASSET = "eip155:84532/erc20:0x036CbD53842c5426634e7929541eC2318f3dCF7e";
/** Live-mode settlement of the default seed: USDC on Base. */
export const DEFAULT_LIVE_ASSET = "eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
/** Settlement address of the default seed. */
export const DEFAULT_DESTINATION_ADDRESS = "0x000000000000000000000000000000000000bEEF";

/** The seed used when none is given: one account, one test and one live merchant, each with a USDC settlement. */
export function defaultSeed(): MockSeed {
  return {
    accounts: [
      {
        merchants: [
          {
            mode: "test",
            name: "Mock Merchant",
            email: "merchant@example.com",
            crypto: [
              { asset: DEFAULT_TEST_ASSET, destination: `eip155:84532:${DEFAULT_DESTINATION_ADDRESS}` },
            ],
          },
          {
            mode: "live",
            name: "Mock Merchant",
            email: "merchant@example.com",
            crypto: [
              { asset: DEFAULT_LIVE_ASSET, destination: `eip155:8453:${DEFAULT_DESTINATION_ADDRESS}` },
            ],
          },
        ],
      },
    ],
  };
}
