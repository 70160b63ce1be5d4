/**
 * The in-memory model of the service: accounts and credentials, merchants, settlements, payments and
 * their state machine. No I/O; time comes from an injectable clock.
 *
 * @module
 */

import { MockServiceError } from "./errors.js";
import { randomHex, randomId } from "./random.js";
import type { MockSeed, MockSeedAccount, MockSeedMerchant } from "./seed.js";
import { type MockTokenInfo, tokenFor, toTokenUnits } from "./tokens.js";
import { buildReceiveWithAuthorization, type MockWalletRpcAction } from "./typed-data.js";
import type {
  MockAccountInfo,
  MockAmount,
  MockCryptoSettlement,
  MockMerchantRecord,
  MockMode,
  MockPaymentRecord,
  MockPaymentStatus,
  MockRequestLogEntry,
} from "./types.js";
import { isEvmAddress, isRedirectUrl, parseAccount, parseAsset } from "./validation.js";

/** Statuses after which a payment never changes. */
/** The last instant with a 4-digit-year ISO 8601 string: 9999-12-31T23:59:59.999Z. */
const LATEST_TIME = 253_402_300_799_999;

export const FINAL_STATUSES: ReadonlySet<MockPaymentStatus> = new Set([
  "succeeded",
  "failed",
  "cancelled",
  "expired",
]);

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
  /** Amount to pay in this asset (`caip19/<asset>`, smallest token units). */
  amount: MockAmount;
  /** Whether the mock can build a wallet action for it (EVM `erc20` assets only). */
  actionable: boolean;
}

/** Model configuration (resolved service options). */
export interface ModelConfig {
  /** Service key prefix (`mock`). */
  keyPrefix: string;
  /** Lifetime of a `requires_action` payment. */
  paymentTtlMs: number;
  /** Accept `http://` loopback redirect URLs. */
  allowLoopbackRedirects: boolean;
  /** Extra token table. */
  tokens: Readonly<Record<string, MockTokenInfo>> | undefined;
  /** Maximum number of logged requests. */
  requestLogLimit: number;
  /** Maximum size of the request log, in characters of its JSON. */
  requestLogMaxBytes: number;
  /** Base clock (epoch ms). */
  now: () => number;
}

interface Credential {
  accountId: string;
  mode: MockMode;
}

/** A stored idempotent result. */
export interface IdempotencyRecord {
  /** `Merchant-Id` + canonical JSON body of the first request. */
  fingerprint: string;
  /** Original status. */
  status: number;
  /** Original body. */
  body: string;
}

/** The whole state. */
export class MockModel {
  /** Accounts by id. */
  readonly accounts = new Map<string, MockAccountInfo>();
  /** API key → account and mode. */
  readonly apiKeys = new Map<string, Credential>();
  /** App id → account, mode and the client id it requires. */
  readonly appIds = new Map<string, Credential & { clientId: string }>();
  /** Merchants by id (all accounts, both modes). */
  readonly merchants = new Map<string, MockMerchantRecord>();
  /** Payments by id. */
  readonly payments = new Map<string, MockPaymentRecord>();
  /** Idempotent results by scope (`account|mode|METHOD path|key`). */
  readonly idempotency = new Map<string, IdempotencyRecord>();
  /** Rate-limit windows by credential. */
  readonly rateWindows = new Map<string, { start: number; count: number }>();
  /** Request log (bounded). */
  requests: MockRequestLogEntry[] = [];
  private requestSizes: number[] = [];
  private requestBytes = 0;
  private offsetMs = 0;
  /** Counts `reset()` calls: a request that started before one is discarded. */
  generation = 0;
  private readonly resetListeners = new Set<() => void>();
  private resolvedSeed: MockSeed;

  /** Creates the model and applies the seed. */
  constructor(
    private readonly config: ModelConfig,
    seed: MockSeed,
  ) {
    this.resolvedSeed = this.applySeed(seed);
  }

  /** Calls `listener` at the next `reset()`; returns a function that stops listening. */
  onReset(listener: () => void): () => void {
    this.resetListeners.add(listener);
    return () => this.resetListeners.delete(listener);
  }

  /** Current mock time (epoch ms). */
  now(): number {
    return this.config.now() + this.offsetMs;
  }

  /** Moves the mock clock forward. */
  advanceTime(ms: number): void {
    // Beyond year 9999 a date has no ISO 8601 string: every answer holding one would fail.
    const limit = LATEST_TIME - this.now();
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0 || ms > limit) {
      throw new MockServiceError(
        400,
        "invalid_request",
        `ms must be a number in 0..${limit} (up to year 9999).`,
        {
          field: "ms",
        },
      );
    }
    this.offsetMs += ms;
  }

  /** Clears everything and re-applies the seed (same keys and ids as at start). Keeps the clock offset at 0. */
  reset(): void {
    this.generation++;
    for (const listener of this.resetListeners) listener();
    this.accounts.clear();
    this.apiKeys.clear();
    this.appIds.clear();
    this.merchants.clear();
    this.payments.clear();
    this.idempotency.clear();
    this.rateWindows.clear();
    this.clearRequests();
    this.offsetMs = 0;
    this.resolvedSeed = this.applySeed(this.resolvedSeed);
  }

  /** The first account (the default one). */
  get defaultAccount(): MockAccountInfo {
    const first = this.accounts.values().next().value;
    if (!first) throw new Error("the mock has no account");
    return first;
  }

  private applySeed(seed: MockSeed): MockSeed {
    if (!seed.accounts || seed.accounts.length === 0) throw new Error("seed must hold at least one account");
    return { accounts: seed.accounts.map((a) => this.createAccount(a).seed) };
  }

  /** Creates an account (with its merchants) from seed data; returns the account and the resolved seed. */
  createAccount(seed: MockSeedAccount = {}): { account: MockAccountInfo; seed: MockSeedAccount } {
    const p = this.config.keyPrefix;
    const id = seed.id ?? randomId("acct_", 16);
    if (this.accounts.has(id)) throw new Error(`account ${id} already exists`);
    const test = seed.keys?.test ?? randomId(`${p}_test_`, 32);
    const live = seed.keys?.live ?? randomId(`${p}_`, 32);
    if (!test.startsWith(`${p}_test_`)) throw new Error(`seed test key must start with ${p}_test_`);
    if (!live.startsWith(`${p}_`) || live.startsWith(`${p}_test_`)) {
      throw new Error(`seed live key must start with ${p}_ (and not ${p}_test_)`);
    }
    if (this.apiKeys.has(test) || this.apiKeys.has(live)) throw new Error("seed key already in use");
    const app = {
      test: seed.keys?.app?.test ?? { appId: randomId("app_test_", 16), clientId: randomId("client_", 16) },
      live: seed.keys?.app?.live ?? { appId: randomId("app_", 16), clientId: randomId("client_", 16) },
    };
    const account: MockAccountInfo = { id, keys: { test, live, app } };
    this.accounts.set(id, account);
    this.apiKeys.set(test, { accountId: id, mode: "test" });
    this.apiKeys.set(live, { accountId: id, mode: "live" });
    this.appIds.set(app.test.appId, { accountId: id, mode: "test", clientId: app.test.clientId });
    this.appIds.set(app.live.appId, { accountId: id, mode: "live", clientId: app.live.clientId });
    const merchants = (seed.merchants ?? []).map((m) => this.seedMerchant(id, m));
    return {
      account,
      seed: { id, keys: { test, live, app: { test: { ...app.test }, live: { ...app.live } } }, merchants },
    };
  }

  private seedMerchant(accountId: string, m: MockSeedMerchant): MockSeedMerchant {
    const mode = m.mode ?? "test";
    const merchant = this.createMerchant(accountId, mode, {
      id: m.id,
      name: m.name,
      email: m.email ?? null,
      iconUrl: m.iconUrl ?? null,
      status: m.status ?? "active",
    });
    const crypto = this.addCryptoSettlements(
      merchant,
      (m.crypto ?? []).map((c) => ({ asset: c.asset, destination: c.destination, id: c.id })),
    );
    const fiat = (m.fiat ?? []).map((f) => ({
      id: f.id ?? randomId("fiat_"),
      status: f.status,
      bankType: f.bankType,
    }));
    merchant.settlements.fiat.push(...fiat);
    return {
      ...m,
      id: merchant.id,
      mode,
      crypto: crypto.map((c) => ({ ...c })),
      fiat: fiat.map((f) => ({ ...f })),
    };
  }

  /** Resolves an API key. */
  credentialForKey(key: string): Credential | undefined {
    return this.apiKeys.get(key);
  }

  /** Creates a merchant (status `active` unless given). */
  createMerchant(
    accountId: string,
    mode: MockMode,
    input: {
      id?: string | undefined;
      name: string;
      email: string | null;
      iconUrl?: string | null;
      status?: MockMerchantRecord["status"];
    },
  ): MockMerchantRecord {
    const id = input.id ?? randomId("mrch_");
    if (this.merchants.has(id)) throw new Error(`merchant ${id} already exists`);
    const merchant: MockMerchantRecord = {
      id,
      accountId,
      mode,
      name: input.name,
      email: input.email,
      status: input.status ?? "active",
      iconUrl: input.iconUrl ?? null,
      createdAt: this.now(),
      settlements: { crypto: [], fiat: [] },
    };
    this.merchants.set(id, merchant);
    return merchant;
  }

  /**
   * Validates and adds crypto settlements atomically (all or none).
   * Throws 400 `invalid_request` for bad CAIP ids / chain mismatch, 409 `settlement_asset_conflict`
   * when an asset is already registered for the merchant (or repeated in the same call).
   */
  addCryptoSettlements(
    merchant: MockMerchantRecord,
    items: { asset: unknown; destination: unknown; id?: string | undefined }[],
  ): MockCryptoSettlement[] {
    const seen = new Set(merchant.settlements.crypto.map((c) => c.asset.toLowerCase()));
    const created: MockCryptoSettlement[] = [];
    items.forEach((item, i) => {
      const { asset, destination } = checkSettlementPair(item.asset, item.destination, `settlements.${i}`);
      if (seen.has(asset.toLowerCase())) {
        throw new MockServiceError(
          409,
          "settlement_asset_conflict",
          `Asset ${asset} is already registered for merchant ${merchant.id}.`,
          { asset, merchantId: merchant.id },
        );
      }
      seen.add(asset.toLowerCase());
      created.push({ id: item.id ?? randomId("crypto_"), asset, destination });
    });
    merchant.settlements.crypto.push(...created);
    return created;
  }

  /** Changes the destination of a crypto settlement (404 when unknown, 400 when invalid). */
  updateCryptoSettlement(
    merchant: MockMerchantRecord,
    id: string,
    destination: unknown,
  ): MockCryptoSettlement {
    const settlement = merchant.settlements.crypto.find((c) => c.id === id);
    if (!settlement)
      throw new MockServiceError(404, "not_found", `No crypto settlement ${id} for this merchant.`);
    const checked = checkSettlementPair(settlement.asset, destination, "");
    settlement.destination = checked.destination;
    return settlement;
  }

  /** Creates a payment in `requires_action`. */
  createPayment(input: {
    merchant: MockMerchantRecord;
    referenceId: string;
    amount: MockAmount;
    flow: "direct" | "checkout";
    checkout: { successUrl?: unknown; errorUrl?: unknown } | null;
  }): MockPaymentRecord {
    const now = this.now();
    const { successUrl, errorUrl } = input.checkout ?? {};
    const loop = this.config.allowLoopbackRedirects;
    const redirects =
      isRedirectUrl(successUrl, loop) && isRedirectUrl(errorUrl, loop) ? { successUrl, errorUrl } : null;
    const payment: MockPaymentRecord = {
      id: randomId("pay_"),
      accountId: input.merchant.accountId,
      mode: input.merchant.mode,
      merchantId: input.merchant.id,
      referenceId: input.referenceId,
      amount: { ...input.amount },
      flow: input.flow,
      redirects,
      status: "requires_action",
      createdAt: now,
      expiresAt: now + this.config.paymentTtlMs,
      selectedOptionId: null,
      buyerAddress: null,
      info: null,
      cancelledAt: null,
      history: [{ status: "requires_action", at: now }],
    };
    this.payments.set(payment.id, payment);
    return payment;
  }

  /** Looks a payment up and applies expiry (a `requires_action` payment past `expiresAt` becomes `expired`). */
  getPayment(id: string): MockPaymentRecord {
    const payment = this.payments.get(id);
    if (!payment) throw new MockServiceError(404, "not_found", `No such payment: ${id}.`);
    this.refresh(payment);
    return payment;
  }

  /** Applies time-based expiry to one payment. */
  refresh(payment: MockPaymentRecord): void {
    if (payment.status === "requires_action" && this.now() >= payment.expiresAt) {
      this.setStatus(payment, "expired", payment.expiresAt);
    }
  }

  private setStatus(payment: MockPaymentRecord, status: MockPaymentStatus, at = this.now()): void {
    payment.status = status;
    payment.history.push({ status, at });
  }

  /**
   * Moves a payment along the state machine:
   * `requires_action → processing → succeeded | failed`; `requires_action | processing → expired | cancelled |
   * succeeded | failed`. Final payments never change (409 `invalid_transition`).
   */
  transition(payment: MockPaymentRecord, to: MockPaymentStatus, optionId?: string): MockPaymentRecord {
    this.refresh(payment);
    const from = payment.status;
    const allowed =
      !FINAL_STATUSES.has(from) &&
      (to !== "processing" || from === "requires_action") &&
      to !== "requires_action";
    if (!allowed) {
      throw new MockServiceError(
        409,
        to === "cancelled" ? "payment_not_cancellable" : "invalid_transition",
        `Payment ${payment.id} is ${from} and cannot become ${to}.`,
        { status: from },
      );
    }
    if (optionId !== undefined) this.optionFor(payment, optionId);
    if (optionId !== undefined) payment.selectedOptionId = optionId;
    if (to === "succeeded") {
      const option = this.selectedOption(payment);
      payment.info = {
        txId: payment.mode === "test" ? `test:${payment.id}` : randomHex(32),
        optionAmount: { ...option.amount },
      };
      payment.selectedOptionId = option.optionId;
    }
    if (to === "cancelled") payment.cancelledAt = this.now();
    this.setStatus(payment, to);
    return payment;
  }

  /** The options of a payment: one per crypto settlement of its merchant. */
  paymentOptions(payment: MockPaymentRecord): MockPaymentOption[] {
    const merchant = this.merchants.get(payment.merchantId);
    if (!merchant) return [];
    return merchant.settlements.crypto.map((s) => this.optionFromSettlement(payment, s));
  }

  private optionFromSettlement(payment: MockPaymentRecord, s: MockCryptoSettlement): MockPaymentOption {
    const parsed = parseAsset(s.asset);
    const token = tokenFor(s.asset, this.config.tokens);
    const currency = payment.amount.unit.slice("iso4217/".length);
    const units = toTokenUnits(payment.amount.value, currency, token.decimals);
    const actionable =
      typeof parsed !== "string" && parsed.chainNamespace === "eip155" && parsed.assetNamespace === "erc20";
    return {
      optionId: s.id,
      asset: s.asset,
      chainId: typeof parsed === "string" ? "" : parsed.chainId,
      destination: s.destination,
      symbol: token.symbol,
      decimals: token.decimals,
      amount: { unit: `caip19/${s.asset}`, value: units.toString() },
      actionable,
    };
  }

  /** Finds an option by id (400 `invalid_option_id` when the merchant has no such settlement). */
  optionFor(payment: MockPaymentRecord, optionId: string): MockPaymentOption {
    const option = this.paymentOptions(payment).find((o) => o.optionId === optionId);
    if (!option) {
      throw new MockServiceError(
        400,
        "invalid_option_id",
        `Unknown payment option ${optionId} for this payment.`,
        {
          optionIds: this.paymentOptions(payment).map((o) => o.optionId),
        },
      );
    }
    return option;
  }

  /** The selected option, else the first one, else a synthetic USDC option (so controls work without settlements). */
  selectedOption(payment: MockPaymentRecord): MockPaymentOption {
    const options = this.paymentOptions(payment);
    const chosen = options.find((o) => o.optionId === payment.selectedOptionId) ?? options[0];
    if (chosen) return chosen;
    return this.optionFromSettlement(payment, {
      id: "crypto_none",
      asset: "eip155:84532/erc20:0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      destination: "eip155:84532:0x000000000000000000000000000000000000bEEF",
    });
  }

  /** Builds the wallet action for a payment (status stays `requires_action`). */
  buildAction(payment: MockPaymentRecord, optionId: string | undefined, buyer: string): MockWalletRpcAction {
    this.refresh(payment);
    if (payment.status !== "requires_action") {
      throw new MockServiceError(
        409,
        "payment_not_actionable",
        `Payment ${payment.id} is ${payment.status}.`,
        {
          status: payment.status,
        },
      );
    }
    const options = this.paymentOptions(payment);
    if (options.length === 0) {
      throw new MockServiceError(
        409,
        "no_payment_options",
        "The merchant has no crypto settlement to pay to.",
      );
    }
    const option = optionId === undefined ? options[0]! : this.optionFor(payment, optionId);
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
    const token = tokenFor(option.asset, this.config.tokens);
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
    payment.selectedOptionId = option.optionId;
    payment.buyerAddress = buyer;
    return {
      type: "walletRpc",
      data: {
        chain_id: asset.chainId,
        method: "eth_signTypedData_v4",
        params: [buyer, JSON.stringify(typed)],
      },
    };
  }

  /** Adds a request log entry (bounded). */
  log(entry: MockRequestLogEntry): void {
    const size = JSON.stringify(entry).length;
    this.requests.push(entry);
    this.requestSizes.push(size);
    this.requestBytes += size;
    while (
      this.requests.length > 1 &&
      (this.requests.length > this.config.requestLogLimit ||
        this.requestBytes > this.config.requestLogMaxBytes)
    ) {
      this.requests.shift();
      this.requestBytes -= this.requestSizes.shift() ?? 0;
    }
  }

  /** Empties the request log. */
  clearRequests(): void {
    this.requests = [];
    this.requestSizes = [];
    this.requestBytes = 0;
  }
}

function checkSettlementPair(
  assetIn: unknown,
  destinationIn: unknown,
  at: string,
): { asset: string; destination: string } {
  const prefix = at ? `${at}.` : "";
  const asset = parseAsset(assetIn);
  if (typeof asset === "string") {
    throw new MockServiceError(400, "invalid_request", `${prefix}asset ${asset}.`, {
      field: `${prefix}asset`,
    });
  }
  const dest = parseAccount(destinationIn);
  if (typeof dest === "string") {
    throw new MockServiceError(400, "invalid_request", `${prefix}destination ${dest}.`, {
      field: `${prefix}destination`,
    });
  }
  if (dest.chainId !== asset.chainId) {
    throw new MockServiceError(
      400,
      "invalid_request",
      `${prefix}destination is on ${dest.chainId} but the asset is on ${asset.chainId}; they must be on the same chain.`,
      { field: `${prefix}destination` },
    );
  }
  return { asset: assetIn as string, destination: destinationIn as string };
}

/** Parses the `data` of a gateway fetch into a buyer address (an address, or JSON with `from`/`address`). */
export function buyerFromData(data: unknown): string | MockServiceError {
  if (data === undefined || data === null || data === "") return MOCK_BUYER_ADDRESS;
  if (typeof data !== "string") {
    return new MockServiceError(400, "invalid_request", "data must be a string.", { field: "data" });
  }
  if (isEvmAddress(data)) return data;
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed === "object" && parsed !== null) {
      const rec = parsed as Record<string, unknown>;
      const addr = rec.from ?? rec.address;
      if (typeof addr === "string" && isEvmAddress(addr)) return addr;
    }
  } catch {
    // fall through
  }
  return new MockServiceError(
    400,
    "invalid_request",
    "data must be the buyer's 0x address, or a JSON string with a `from` (or `address`) 0x address.",
    { field: "data" },
  );
}
