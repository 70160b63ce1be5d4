/**
 * The doctor's checks, as data over the operations table: each names its row of `OPERATIONS` (its method, path and
 * response schema come from there, nowhere else), whether it writes, what it needs from the checks before it, and
 * the SDK call that runs it. Operations without an undo (`merchants.create`, settlement writes) and the
 * wallet-facing `gateway.fetchAction` are never run.
 *
 * @module
 */
import type { MerchantPaymentsClient } from "../client.js";
import type { RequestOptions } from "../core/request-options.js";
import { OPERATIONS, type OperationName } from "../operations.js";

/** What the checks learn from one another: the merchant they act for, the payments they created. */
export interface CheckContext {
  merchantId: string | undefined;
  /** A payment to read the status of (`--payment-id`, or the one created). */
  paymentId: string | undefined;
  /** The payment `payments.create` made: cancelled by `payments.cancel`, or by the cleanup. */
  createdPaymentId: string | undefined;
  /** The checkout `checkout.create` made: cancelled by the cleanup. */
  checkoutId: string | undefined;
}

/** One check: an operation of the table run through the SDK method a merchant calls. */
export interface Check {
  operation: OperationName;
  /** Creates or changes something on the service: run only in test mode (or with `--allow-live-writes`). */
  writes: boolean;
  /** Runs the call, or returns `undefined` when what it needs is missing (it is then left out). */
  run(
    client: MerchantPaymentsClient,
    context: CheckContext,
    options: RequestOptions,
  ): Promise<unknown> | undefined;
}

/** Test amounts: the smallest a payment takes in USD, so a mistaken live run moves a cent at most. */
const AMOUNT = { unit: "iso4217/USD", value: "1" } as const;

/** An order reference that tells the doctor's payments from a shop's. */
const reference = (what: string) => `doctor-${what}-${Date.now()}`;

/** The checks, in the order they run: reads first, then a payment and a checkout created, read and cancelled. */
export const CHECKS: readonly Check[] = [
  {
    operation: "listMerchants",
    writes: false,
    run: async (client, context, options) => {
      const list = await client.merchants.list(undefined, options);
      context.merchantId ??= list.data[0]?.id;
      return list;
    },
  },
  {
    operation: "retrieveMerchant",
    writes: false,
    run: (client, { merchantId }, options) =>
      given(merchantId, (id) => client.merchants.retrieve(id, options)),
  },
  {
    operation: "listSettlements",
    writes: false,
    run: (client, { merchantId }, options) => given(merchantId, (id) => client.settlements.list(id, options)),
  },
  {
    operation: "createPayment",
    writes: true,
    run: async (client, context, options) => {
      const payment = await client.payments.create(
        { referenceId: reference("payment"), amount: AMOUNT },
        options,
      );
      context.createdPaymentId = payment.id;
      context.paymentId ??= payment.id;
      return payment;
    },
  },
  {
    operation: "paymentStatus",
    writes: false,
    run: (client, { paymentId }, options) => given(paymentId, (id) => client.payments.status(id, options)),
  },
  {
    operation: "cancelPayment",
    writes: true,
    run: async (client, context, options) => {
      const id = context.createdPaymentId;
      if (id === undefined) return undefined;
      const cancelled = await client.payments.cancel(id, options);
      context.createdPaymentId = undefined;
      return cancelled;
    },
  },
  {
    operation: "createCheckout",
    writes: true,
    run: async (client, context, options) => {
      const input = { referenceId: reference("checkout"), amount: AMOUNT, redirects: false } as const;
      const checkout = await client.checkout.create(input, options);
      context.checkoutId = checkout.paymentId;
      return checkout;
    },
  },
  {
    operation: "checkoutStatus",
    writes: false,
    run: (client, { checkoutId }, options) => given(checkoutId, (id) => client.checkout.status(id, options)),
  },
];

/** The call on an id learned before, or `undefined` (the check is left out) when there is none. */
function given<T>(id: string | undefined, call: (id: string) => Promise<T>): Promise<T> | undefined {
  return id === undefined ? undefined : call(id);
}

/** The SDK method of an operation, as reports name it: `payments.status`. */
export function methodName(operation: OperationName): string {
  const { call } = OPERATIONS[operation];
  return call.slice(0, call.indexOf("("));
}
