/**
 * Records held by the in-memory model of the mock service. They are plain data; the mock hands out
 * copies (snapshots) so callers cannot change the model behind its back.
 *
 * @module
 */

/** Test or live mode: selected by the credential a request carries. */
export type MockMode = "test" | "live";

/** Every payment status the mock uses (the spec's full list). */
export type MockPaymentStatus =
  | "requires_action"
  | "processing"
  | "succeeded"
  | "failed"
  | "expired"
  | "cancelled";

/** Merchant status values of the spec. */
export type MockMerchantStatus = "active" | "inactive" | "suspended";

/** An amount: `iso4217/<CODE>` (requested) or `caip19/<asset>` (paid), value in minor units. */
export interface MockAmount {
  /** `iso4217/USD` or `caip19/<CAIP-19 asset id>`. */
  unit: string;
  /** Integer in minor units (or token smallest units), as a decimal string. */
  value: string;
}

/** A crypto settlement destination (as the service answers it). */
export interface MockCryptoSettlement {
  /** `crypto_…` */
  id: string;
  /** CAIP-19 asset id. */
  asset: string;
  /** CAIP-10 account on the asset's chain. */
  destination: string;
}

/** A fiat settlement configuration (as the service answers it; only created by seeding). */
export interface MockFiatSettlement {
  /** `fiat_…` */
  id: string;
  /** Free string; the spec does not list the allowed values. */
  status: string;
  /** Free string; the spec does not list the allowed values. */
  bankType: string;
}

/** A merchant as the model stores it. */
export interface MockMerchantRecord {
  /** `mrch_…` */
  id: string;
  /** The owning account. */
  accountId: string;
  /** The mode the merchant exists in (test data never shows in live mode and vice versa). */
  mode: MockMode;
  /** Display name. */
  name: string;
  /** Contact e-mail or null. */
  email: string | null;
  /** Merchant status. */
  status: MockMerchantStatus;
  /** Logo URL or null. */
  iconUrl: string | null;
  /** Creation time, epoch milliseconds (mock clock). */
  createdAt: number;
  /** Settlement destinations. */
  settlements: {
    /** Crypto settlements (asset + destination on the same chain). */
    crypto: MockCryptoSettlement[];
    /** Fiat settlements (bank account configurations). */
    fiat: MockFiatSettlement[];
  };
}

/** Proof of a succeeded payment (`info` of the status result). */
export interface MockPaymentInfo {
  /** `test:<payment_id>` in test mode, a 0x… 32-byte hash in live mode. */
  txId: string;
  /** The amount paid in the chosen asset (`caip19/…` unit, token smallest units). */
  optionAmount: MockAmount;
}

/** A payment as the model stores it. */
export interface MockPaymentRecord {
  /** `pay_…` */
  id: string;
  /** The owning account. */
  accountId: string;
  /** Test or live. */
  mode: MockMode;
  /** The merchant the payment was created for. */
  merchantId: string;
  /** The merchant's own order identifier. */
  referenceId: string;
  /** Requested amount (`iso4217/…`). */
  amount: MockAmount;
  /** `direct` = `POST /v1/payments`, `checkout` = `POST /v1/merchant/payment`. */
  flow: "direct" | "checkout";
  /** Redirect targets, or null when redirects are disabled for this payment. */
  redirects: {
    /** Where the portal sends the buyer after a success (`?payment_id=…` is appended). */
    successUrl: string;
    /** Where the portal sends the buyer after a failure (`?payment_id=…` is appended). */
    errorUrl: string;
  } | null;
  /** Current status. */
  status: MockPaymentStatus;
  /** Creation time (epoch ms, mock clock). */
  createdAt: number;
  /** When a `requires_action` payment expires (epoch ms, mock clock). */
  expiresAt: number;
  /** The payment option (crypto settlement id) chosen by the last action fetch or buyer simulation. */
  selectedOptionId: string | null;
  /** Buyer address used by the last action fetch. */
  buyerAddress: string | null;
  /** Set when the payment succeeded. */
  info: MockPaymentInfo | null;
  /** Set when cancelled (epoch ms). */
  cancelledAt: number | null;
  /** Every status the payment went through, with the time (epoch ms). */
  history: {
    /** The status entered. */
    status: MockPaymentStatus;
    /** When it was entered (epoch ms, mock clock). */
    at: number;
  }[];
}

/** One logged request (the `Api-Key` header is redacted). */
export interface MockRequestLogEntry {
  /** The `Request-Id` the mock answered with. */
  requestId: string;
  /** Epoch ms (mock clock). */
  time: number;
  /** HTTP method, upper case. */
  method: string;
  /** Path without query. */
  path: string;
  /** Query parameters (last value wins). */
  query: Record<string, string>;
  /** Request headers, lower-case names; `api-key` redacted to e.g. `mock_test_***`. */
  headers: Record<string, string>;
  /** Parsed JSON body, the raw text when it is not JSON, or null when empty; cut to 4 KiB (then text). */
  body: unknown;
  /** True when the body was longer than 4 KiB: `body` holds its first 4096 characters. */
  bodyTruncated?: boolean;
  /** Value of the version header, or null. */
  version: string | null;
  /** Response status, or null when the connection was dropped before an answer. */
  status: number | null;
}

/** An API-key or App-Id credential pair for one mode. */
export interface MockAppCredentials {
  /** Public app id (`App-Id` header). */
  appId: string;
  /** Client id (`Client-Id` header), required together with the app id. */
  clientId: string;
}

/** The credentials of an account. */
export interface MockAccountKeys {
  /** Test-mode API key, `<prefix>_test_…`. */
  test: string;
  /** Live-mode API key, `<prefix>_…`. */
  live: string;
  /** App-Id + Client-Id pairs per mode. */
  app: {
    /** App-Id + Client-Id for test mode. */
    test: MockAppCredentials;
    /** App-Id + Client-Id for live mode. */
    live: MockAppCredentials;
  };
}

/** An account of the mock (holds merchants in both modes). */
export interface MockAccountInfo {
  /** `acct_…` */
  id: string;
  /** Credentials. */
  keys: MockAccountKeys;
}

/** The portal's name for {@link MockPaymentStatus} (internal: the package exports only the `Mock…` name). */
export type PaymentStatus = MockPaymentStatus;
