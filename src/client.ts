import { type ClientOptions, type Mode, resolveConfig } from "./core/config.js";
import { Transport } from "./core/request.js";
import { Checkout } from "./resources/checkout.js";
import { Gateway } from "./resources/gateway.js";
import { Merchants } from "./resources/merchants.js";
import { Payments } from "./resources/payments.js";
import { Settlements } from "./resources/settlements.js";

/**
 * The client of the Merchant Payments Service. Create one per process and share it: it is stateless between
 * calls and safe to use concurrently.
 *
 * @example
 * ```ts
 * const client = new MerchantPaymentsClient({ apiKey: process.env.MP_KEY, baseUrl: "https://…" });
 * const status = await client.payments.status("pay_123", { merchantId: "mrch_456" });
 * ```
 */
export class MerchantPaymentsClient {
  // Fields are `declare`d: the constructor assigns them, and a plain class field would be defined a second time.
  /** `"test"` for a `<prefix>_test_…` key (payments are simulated), `"live"` for a live key, `"unknown"` for App-Id auth. */
  declare readonly mode: Mode;
  /** The service address requests go to. */
  declare readonly baseUrl: string;
  /** The default `Merchant-Id` of payment operations, if one was configured. */
  declare readonly merchantId: string | undefined;
  /** Merchants of the account: list, create, retrieve. */
  declare readonly merchants: Merchants;
  /** Settlement destinations of a merchant: list, register and update crypto settlements. */
  declare readonly settlements: Settlements;
  /** Wallet-link payments: create, status, cancel, waitForFinal, watch. */
  declare readonly payments: Payments;
  /** Redirect checkout: create, status, waitForFinal, watch, verifyReturn. */
  declare readonly checkout: Checkout;
  /** Wallet-facing operations: fetchAction. */
  declare readonly gateway: Gateway;

  /** @throws {ConfigurationError} when an option is missing or malformed; nothing has been sent then. */
  constructor(options: ClientOptions = {}) {
    const config = resolveConfig(options);
    this.mode = config.mode;
    this.baseUrl = config.baseUrl;
    this.merchantId = config.merchantId;
    const transport = new Transport(config);
    this.merchants = new Merchants(transport);
    this.settlements = new Settlements(transport);
    this.payments = new Payments(transport);
    this.checkout = new Checkout(transport);
    this.gateway = new Gateway(transport);
  }

  /** What `JSON.stringify(client)` shows: the configuration a log may hold, never a credential. */
  toJSON(): {
    /** The mode the key acts in, as {@link MerchantPaymentsClient.mode}. */
    mode: Mode;
    /** The service address requests go to. */
    baseUrl: string;
    /** The default `Merchant-Id`, if one was configured. */
    merchantId: string | undefined;
  } {
    return { mode: this.mode, baseUrl: this.baseUrl, merchantId: this.merchantId };
  }

  /** What `util.inspect(client)` and `console.log(client)` show: the same safe summary. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `MerchantPaymentsClient ${JSON.stringify(this.toJSON())}`;
  }
}
