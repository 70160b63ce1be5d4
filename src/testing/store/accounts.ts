/**
 * The accounts of the mock and their credentials: API keys and App-Id + Client-Id pairs, per mode.
 *
 * @module
 */

import { MockServiceError } from "./errors.js";
import { randomId } from "./random.js";
import type { MockSeedAccount } from "./seed.js";
import type { MockAccountInfo, MockAppCredentials, MockMode } from "./types.js";

/** Who a credential belongs to, and in which mode it acts. */
export interface Credential {
  /** The account. */
  accountId: string;
  /** Test or live. */
  mode: MockMode;
}

const refuse = (message: string): MockServiceError => new MockServiceError(400, "invalid_request", message);

/** Accounts by id, and every credential that names one. */
export class AccountStore {
  readonly #accounts = new Map<string, MockAccountInfo>();
  readonly #apiKeys = new Map<string, Credential>();
  readonly #appIds = new Map<string, Credential & { clientId: string }>();

  /** Creates the store; keys are `<keyPrefix>_test_…` and `<keyPrefix>_…`. */
  constructor(private readonly keyPrefix: string) {}

  /** Every account, first (default) one first. */
  list(): MockAccountInfo[] {
    return [...this.#accounts.values()];
  }

  /** The first account (the default one). */
  get first(): MockAccountInfo {
    const first = this.#accounts.values().next().value;
    if (!first) throw new Error("the mock has no account");
    return first;
  }

  /** The owner of an API key. */
  byApiKey(key: string): Credential | undefined {
    return this.#apiKeys.get(key);
  }

  /** The owner of an App-Id + Client-Id pair; undefined when the pair does not match. */
  byApp(appId: string, clientId: string): Credential | undefined {
    const app = this.#appIds.get(appId);
    return app && app.clientId === clientId ? { accountId: app.accountId, mode: app.mode } : undefined;
  }

  /** Adds an account with the given or generated credentials. Nothing is stored when a rule is broken. */
  add(seed: MockSeedAccount): MockAccountInfo {
    const p = this.keyPrefix;
    const id = seed.id ?? randomId("acct_", 16);
    if (this.#accounts.has(id)) throw refuse(`account ${id} already exists`);
    const test = seed.keys?.test ?? randomId(`${p}_test_`, 32);
    const live = seed.keys?.live ?? randomId(`${p}_`, 32);
    if (!test.startsWith(`${p}_test_`)) throw refuse(`seed test key must start with ${p}_test_`);
    if (!live.startsWith(`${p}_`) || live.startsWith(`${p}_test_`)) {
      throw refuse(`seed live key must start with ${p}_ (and not ${p}_test_)`);
    }
    if (this.#apiKeys.has(test) || this.#apiKeys.has(live)) throw refuse("seed key already in use");
    const app = {
      test: seed.keys?.app?.test ?? { appId: randomId("app_test_", 16), clientId: randomId("client_", 16) },
      live: seed.keys?.app?.live ?? { appId: randomId("app_", 16), clientId: randomId("client_", 16) },
    };
    this.checkApps(app.test, app.live);
    const account: MockAccountInfo = { id, keys: { test, live, app } };
    this.#accounts.set(id, account);
    this.#apiKeys.set(test, { accountId: id, mode: "test" });
    this.#apiKeys.set(live, { accountId: id, mode: "live" });
    this.#appIds.set(app.test.appId, { accountId: id, mode: "test", clientId: app.test.clientId });
    this.#appIds.set(app.live.appId, { accountId: id, mode: "live", clientId: app.live.clientId });
    return account;
  }

  // An App-Id names one account: reusing another account's would hand its merchants to whoever added it.
  private checkApps(test: MockAppCredentials, live: MockAppCredentials): void {
    for (const app of [test, live]) {
      if (
        typeof app?.appId !== "string" ||
        app.appId === "" ||
        typeof app.clientId !== "string" ||
        app.clientId === ""
      ) {
        throw refuse("seed app credentials need a non-empty appId and clientId");
      }
      if (this.#appIds.has(app.appId)) throw refuse(`appId ${app.appId} already belongs to an account`);
    }
    if (test.appId === live.appId) throw refuse("the test and live appId must differ");
  }

  /** Forgets an account and its credentials (a creation refused after it was added is undone). */
  remove(id: string): void {
    if (!this.#accounts.delete(id)) return;
    for (const store of [this.#apiKeys, this.#appIds]) {
      for (const [key, owner] of store) if (owner.accountId === id) store.delete(key);
    }
  }

  /** Forgets everything. */
  clear(): void {
    this.#accounts.clear();
    this.#apiKeys.clear();
    this.#appIds.clear();
  }
}
