/**
 * The whole in-memory state of the mock: one store per aggregate (accounts, merchants, payments, the request log,
 * idempotent answers, rate windows) over one clock, seeded at start and again at every `reset()`. No I/O.
 *
 * @module
 */

import { AccountStore } from "./accounts.js";
import { MockClock } from "./clock.js";
import { RateWindows, ReplayStore } from "./limits.js";
import { checkNewMerchant, MerchantStore } from "./merchants.js";
import { PaymentStore } from "./payments.js";
import { randomId } from "./random.js";
import { RequestLog } from "./request-log.js";
import type { MockSeed, MockSeedAccount, MockSeedMerchant } from "./seed.js";
import type { MockTokenInfo } from "./tokens.js";
import type { MockAccountInfo } from "./types.js";
import type { RedirectRule } from "./validation.js";

/** Model configuration (resolved service options). */
export interface ModelConfig {
  /** Service key prefix (`mock`). */
  keyPrefix: string;
  /** Lifetime of a `requires_action` payment. */
  paymentTtlMs: number;
  /** Which plain-http redirect URLs are accepted. */
  redirects: Omit<RedirectRule, "mode">;
  /** Extra token table. */
  tokens: Readonly<Record<string, MockTokenInfo>> | undefined;
  /** Maximum number of logged requests. */
  requestLogLimit: number;
  /** Maximum memory held by the request log, in bytes. */
  requestLogMaxBytes: number;
  /** Base clock (epoch ms). */
  now: () => number;
}

/** The state of the mock. */
export class MockModel {
  /** Mock time. */
  readonly clock: MockClock;
  /** Accounts and credentials. */
  readonly accounts: AccountStore;
  /** Merchants and settlements. */
  readonly merchants: MerchantStore;
  /** Payments. */
  readonly payments: PaymentStore;
  /** The request log. */
  readonly requests: RequestLog;
  /** Idempotent answers. */
  readonly replays = new ReplayStore();
  /** Rate-limit windows. */
  readonly rateWindows = new RateWindows();
  #generation = 0;
  readonly #resetListeners = new Set<() => void>();
  #seed: MockSeed;

  /** Creates the model and applies the seed. */
  constructor(config: ModelConfig, seed: MockSeed) {
    this.clock = new MockClock(config.now);
    const now = (): number => this.clock.now();
    this.accounts = new AccountStore(config.keyPrefix);
    this.merchants = new MerchantStore(now);
    this.payments = new PaymentStore(
      { paymentTtlMs: config.paymentTtlMs, redirects: config.redirects, tokens: config.tokens, now },
      this.merchants,
    );
    this.requests = new RequestLog(config.requestLogLimit, config.requestLogMaxBytes);
    this.#seed = this.applySeed(seed);
  }

  /** Counts `reset()` calls: a request that started before one is discarded. */
  get generation(): number {
    return this.#generation;
  }

  /** Calls `listener` at the next `reset()`; returns a function that stops listening. */
  onReset(listener: () => void): () => void {
    this.#resetListeners.add(listener);
    return () => this.#resetListeners.delete(listener);
  }

  /** Current mock time (epoch ms). */
  now(): number {
    return this.clock.now();
  }

  /** Clears everything and re-applies the seed (same keys and ids as at start); the clock offset back to 0. */
  reset(): void {
    this.#generation++;
    for (const listener of this.#resetListeners) listener();
    for (const store of [this.accounts, this.merchants, this.payments, this.replays, this.rateWindows])
      store.clear();
    this.requests.clear();
    this.clock.reset();
    this.#seed = this.applySeed(this.#seed);
  }

  private applySeed(seed: MockSeed): MockSeed {
    if (!Array.isArray(seed?.accounts) || seed.accounts.length === 0) {
      throw new TypeError('seed must hold at least one account: { "accounts": [{}] }');
    }
    return { accounts: seed.accounts.map((a, i) => this.seedAccount(a, `accounts.${i}`)) };
  }

  private seedAccount(seed: MockSeedAccount, at: string): MockSeedAccount {
    try {
      return this.createAccount(seed).seed;
    } catch (err) {
      throw new TypeError(`seed ${at}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }

  /** Creates an account with its merchants; returns it and the seed that recreates it (same keys and ids). */
  createAccount(seed: MockSeedAccount = {}): { account: MockAccountInfo; seed: MockSeedAccount } {
    if (typeof seed !== "object" || seed === null) throw new TypeError("an account seed must be an object");
    if (seed.merchants !== undefined && !Array.isArray(seed.merchants)) {
      throw new TypeError("merchants must be an array");
    }
    // Checked before anything is stored; what only storing finds (a merchant id in use, a bad settlement) undoes
    // the account: a refused seed leaves no key behind and can be sent again once fixed.
    for (const m of seed.merchants ?? []) checkNewMerchant({ ...m, email: m.email ?? null });
    const account = this.accounts.add(seed);
    let merchants: MockSeedMerchant[];
    try {
      merchants = (seed.merchants ?? []).map((m) => this.seedMerchant(account.id, m));
    } catch (err) {
      this.merchants.removeAccount(account.id);
      this.accounts.remove(account.id);
      throw err;
    }
    const { test, live, app } = account.keys;
    return {
      account,
      seed: {
        id: account.id,
        keys: { test, live, app: { test: { ...app.test }, live: { ...app.live } } },
        merchants,
      },
    };
  }

  private seedMerchant(accountId: string, m: MockSeedMerchant): MockSeedMerchant {
    const mode = m.mode ?? "test";
    if (mode !== "test" && mode !== "live")
      throw new TypeError('a merchant\'s mode must be "test" or "live"');
    const merchant = this.merchants.create(accountId, mode, {
      id: m.id,
      name: m.name,
      email: m.email ?? null,
      iconUrl: m.iconUrl ?? null,
      status: m.status ?? "active",
    });
    const crypto = this.merchants.addCrypto(
      merchant,
      (m.crypto ?? []).map((c) => ({ asset: c.asset, destination: c.destination, id: c.id })),
    );
    const fiat = (m.fiat ?? []).map((f) => ({
      id: f.id ?? randomId("fiat_"),
      status: f.status,
      bankType: f.bankType,
    }));
    this.merchants.addFiat(merchant, fiat);
    return {
      ...m,
      id: merchant.id,
      mode,
      crypto: crypto.map((c) => ({ ...c })),
      fiat: fiat.map((f) => ({ ...f })),
    };
  }
}
