/**
 * `MerchantPaymentsClient`: resolves the options, builds the transport and the namespaced sub-clients.
 *
 * @module
 */
import type * as z from "zod/mini";
import { APIPromise } from "./core/api-promise.js";
import { mergeOptions, resolveConfig } from "./core/config.js";
import type { SocketPool } from "./core/http.js";
import type { ClientOptions, Mode } from "./core/options.js";
import type { RequestOptions } from "./core/request-options.js";
import { Transport } from "./core/transport.js";
import { type CustomOperation, type CustomResult, customRow } from "./custom-operations.js";
import { Checkout } from "./resources/checkout.js";
import { Gateway } from "./resources/gateway.js";
import { Merchants } from "./resources/merchants.js";
import { Payments } from "./resources/payments.js";
import { Settlements } from "./resources/settlements.js";

/** Set only while `withOptions()` builds a client: the socket pool it shares with its parent. */
let parentPool: SocketPool | undefined;

/**
 * The client of the Merchant Payments Service. Create one per process and share it: it is stateless between
 * calls and safe to use concurrently.
 *
 * @example
 * ```ts
 * // apiKey, baseUrl and merchantId default to MERCHANT_PAYMENTS_API_KEY, _BASE_URL and _MERCHANT_ID.
 * const client = new MerchantPaymentsClient();
 * const status = await client.payments.status("pay_123");
 * ```
 */
export class MerchantPaymentsClient {
  /**
   * `"test"` for a `<prefix>_test_…` key (payments are simulated), `"live"` for a live key, `"unknown"` for App-Id
   * auth (the App ID does not say which mode it acts in). Typed `"test" | "live" | "unknown"`.
   */
  readonly mode: Mode;
  /** The service address requests go to. */
  readonly baseUrl: string;
  /** The default `Merchant-Id` of payment operations, if one was configured. */
  readonly merchantId: string | undefined;
  /** Merchants of the account: list, create, retrieve. */
  readonly merchants: Merchants;
  /** Settlement destinations of a merchant: list, register and update crypto settlements. */
  readonly settlements: Settlements;
  /** Wallet-link payments: create, status, cancel, waitForFinal, watch. */
  readonly payments: Payments;
  /** Redirect checkout: create, status, waitForFinal, watch, verifyReturn. */
  readonly checkout: Checkout;
  /** Wallet-facing operations: fetchAction. */
  readonly gateway: Gateway;
  /** The options as given, credentials included, for {@link MerchantPaymentsClient.withOptions}. Private: never shown. */
  readonly #options: ClientOptions;
  /** The sockets shared with every client `withOptions()` makes from this one: `maxSockets` bounds them all. */
  readonly #pool: SocketPool;
  /** The one transport of this client: every namespace's operations and custom ones go through it. */
  readonly #transport: Transport;

  /** @throws {ConfigurationError} when an option is missing, unknown or malformed; nothing has been sent then. */
  constructor(options: ClientOptions = {}) {
    const pool = parentPool;
    parentPool = undefined;
    const config = resolveConfig(options);
    this.#options = config.options;
    this.mode = config.mode;
    this.baseUrl = config.baseUrl;
    this.merchantId = config.merchantId;
    const transport = new Transport(config, pool);
    this.#pool = transport.pool;
    this.#transport = transport;
    this.merchants = new Merchants(transport);
    this.settlements = new Settlements(transport);
    this.payments = new Payments(transport);
    this.checkout = new Checkout(transport);
    this.gateway = new Gateway(transport);
  }

  /**
   * Calls an operation the SDK does not wrap (yet), with every guarantee of the built-in ones: it becomes one more
   * row of the SDK's operations table and goes through the same transport (credentials, the pinned version,
   * `Merchant-Id`, idempotency keys and safe retries, limits, redaction, typed errors, reading modes and drift
   * events). The result is the output of `response` when given, else the parsed JSON. Details:
   * docs/custom-operations.md.
   *
   * @example
   * ```ts
   * const merchant = await client.request({
   *   method: "GET",
   *   path: "/v1/merchants/{merchantId}",
   *   params: { merchantId: "mrch_123" },
   * });
   * ```
   * @throws Never synchronously: a bad operation rejects with a `ConfigurationError`, a bad parameter value, query
   *   or body with an `InputValidationError`, before anything is sent.
   */
  request<S extends z.core.$ZodType | undefined = undefined>(
    operation: CustomOperation<S>,
    options?: RequestOptions,
  ): APIPromise<CustomResult<S>> {
    let custom: ReturnType<typeof customRow>;
    try {
      custom = customRow(operation);
    } catch (error) {
      return new APIPromise(Promise.reject(error));
    }
    return this.#transport.call(custom.row, custom.input, options) as APIPromise<CustomResult<S>>;
  }

  /**
   * A new client with these options on top of this one's: the same credentials (unless `overrides` gives others),
   * nothing mutable shared but the socket pool (one per origin for the whole family: `maxSockets` bounds them all;
   * a child with another `maxSockets` starts a pool of its own). A nested option (`retry`, `hooks`, `defaultHeaders`) is replaced whole.
   *
   * @example
   * ```ts
   * const traced = client.withOptions({ defaultHeaders: { traceparent }, timeoutMs: 5_000 });
   * ```
   * @throws {ConfigurationError} as the constructor does; this client is left unchanged.
   */
  withOptions(overrides: ClientOptions): MerchantPaymentsClient {
    parentPool = this.#pool;
    try {
      return new MerchantPaymentsClient(mergeOptions(this.#options, overrides));
    } finally {
      parentPool = undefined;
    }
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
