/**
 * The service's `/v1` operations: one handler per route, over the model. Each runs after the chain
 * (see `chain.ts`), so it finds the caller, the body and the merchant in its context.
 *
 * @module
 */

import { isEmail } from "../../validate/rules.js";
import { json, type RawResponse } from "../http.js";
import { MockServiceError } from "../store/errors.js";
import { isObject } from "../store/json.js";
import { buyerFromData } from "../store/payments.js";
import type { MockMerchantRecord, MockPaymentRecord } from "../store/types.js";
import { checkRequestedAmount } from "../store/validation.js";
import { type ApiContext, resolveMerchant } from "./chain.js";
import {
  bad,
  merchantBody,
  portalUrl,
  requireObjectBody,
  requireString,
  settlementsBody,
  statusBody,
} from "./shapes.js";

function resolvePayment(context: ApiContext, id: string, merchant?: MockMerchantRecord): MockPaymentRecord {
  const { model, caller } = context;
  const p = model.payments.find(id);
  const notFound = new MockServiceError(404, "not_found", `No such payment: ${id}.`, { paymentId: id });
  if (!p) throw notFound;
  if (p.accountId !== caller.accountId) {
    throw new MockServiceError(
      403,
      "forbidden",
      "This API key has no permission for that payment's account.",
    );
  }
  if (p.mode !== caller.mode || (merchant && p.merchantId !== merchant.id)) throw notFound;
  return p;
}

function paymentInput(merchant: MockMerchantRecord, body: Record<string, unknown>) {
  if (merchant.status !== "active") {
    throw new MockServiceError(409, "merchant_not_active", `Merchant ${merchant.id} is ${merchant.status}.`);
  }
  const referenceId = requireString(body, "referenceId");
  if (body.amount === undefined) throw bad("amount is required.", "amount");
  const amount = checkRequestedAmount(body.amount);
  if (typeof amount === "string") throw bad(`amount: ${amount}.`, "amount");
  return { referenceId, amount: { unit: `iso4217/${amount.currency}`, value: amount.value } };
}

/** `GET /v1/merchants` */
export function listMerchants({ model, caller }: ApiContext): RawResponse {
  return json(200, { data: model.merchants.of(caller.accountId, caller.mode).map(merchantBody) });
}

/** `POST /v1/merchants` */
export function createMerchant(context: ApiContext): RawResponse {
  const body = requireObjectBody(context.body);
  const name = requireString(body, "merchantName");
  const email = requireString(body, "merchantEmail");
  if (!isEmail(email)) throw bad("merchantEmail must be an e-mail address.", "merchantEmail");
  const m = context.model.merchants.create(context.caller.accountId, context.caller.mode, { name, email });
  const createdAt = new Date(m.createdAt).toISOString();
  return json(201, { merchant: { id: m.id, name: m.name, email: m.email, status: m.status, createdAt } });
}

/** `GET /v1/merchants/:merchantId` */
export function getMerchant(context: ApiContext): RawResponse {
  return json(200, {
    merchant: merchantBody(resolveMerchant(context.model, context.caller, context.params.merchantId!)),
  });
}

/** `GET /v1/merchants/:merchantId/settlements` */
export function listSettlements(context: ApiContext): RawResponse {
  return json(
    200,
    settlementsBody(resolveMerchant(context.model, context.caller, context.params.merchantId!)),
  );
}

/** `POST /v1/merchants/:merchantId/settlements/crypto` */
export function createCrypto(context: ApiContext): RawResponse {
  const m = resolveMerchant(context.model, context.caller, context.params.merchantId!);
  const list = requireObjectBody(context.body).settlements;
  if (!Array.isArray(list) || list.length === 0) {
    throw bad("settlements must be a non-empty array of { asset, destination }.", "settlements");
  }
  const items = list.map((item: unknown, i) => {
    if (!isObject(item)) throw bad(`settlements.${i} must be an object.`, `settlements.${i}`);
    return { asset: item.asset, destination: item.destination };
  });
  const created = context.model.merchants.addCrypto(m, items);
  return json(201, { crypto: created.map((c) => ({ ...c })) });
}

/** `PUT /v1/merchants/:merchantId/settlements/crypto/:settlementId` */
export function updateCrypto(context: ApiContext): RawResponse {
  const m = resolveMerchant(context.model, context.caller, context.params.merchantId!);
  const body = requireObjectBody(context.body);
  if (body.destination === undefined) throw bad("destination is required.", "destination");
  const s = context.model.merchants.updateCrypto(m, context.params.settlementId!, body.destination);
  return json(200, { ...s });
}

/** `POST /v1/payments` */
export function createPayment(context: ApiContext): RawResponse {
  const merchant = context.merchant!;
  const input = paymentInput(merchant, requireObjectBody(context.body));
  const p = context.model.payments.create({ merchant, ...input, flow: "direct", checkout: null });
  return json(201, {
    id: p.id,
    paymentLink: portalUrl(context.linkBase, p.id),
    status: p.status,
    referenceId: p.referenceId,
    amount: { ...p.amount },
    expiresAt: new Date(p.expiresAt).toISOString(),
  });
}

/** `POST /v1/merchant/payment` */
export function createCheckout(context: ApiContext): RawResponse {
  const merchant = context.merchant!;
  const body = requireObjectBody(context.body);
  const input = paymentInput(merchant, body);
  const checkout = body.checkout;
  if (checkout !== undefined && checkout !== null && !isObject(checkout)) {
    throw bad("checkout must be an object with successUrl and errorUrl.", "checkout");
  }
  const p = context.model.payments.create({
    merchant,
    ...input,
    flow: "checkout",
    checkout: checkout ?? null,
  });
  return json(201, { paymentId: p.id, gatewayUrl: portalUrl(context.linkBase, p.id) });
}

/** `GET /v1/payments/:paymentId/status` and `GET /v1/merchant/payment/:paymentId/status` */
export function paymentStatus(context: ApiContext): RawResponse {
  const p = resolvePayment(context, context.params.paymentId!, context.merchant);
  return json(200, statusBody(p, context.config.pollInMs));
}

/** `POST /v1/payments/:paymentId/cancel` */
export function cancelPayment(context: ApiContext): RawResponse {
  const { model } = context;
  const p = model.payments.transition(
    resolvePayment(context, context.params.paymentId!, context.merchant),
    "cancelled",
  );
  return json(200, {
    cancelledAt: new Date(p.cancelledAt ?? model.now()).toISOString(),
    cancelledReason: "cancelled_by_merchant",
    paymentId: p.id,
    status: "cancelled",
  });
}

/** `POST /v1/gateway/payment/:paymentId/fetch` */
export function gatewayFetch(context: ApiContext): RawResponse {
  const p = resolvePayment(context, context.params.paymentId!);
  const body = context.body === undefined ? {} : requireObjectBody(context.body);
  const optionId = body.optionId;
  if (optionId !== undefined && optionId !== null && typeof optionId !== "string") {
    throw bad("optionId must be a string.", "optionId");
  }
  const buyer = buyerFromData(body.data);
  const action = context.model.payments.action(p, optionId ?? undefined, buyer);
  return json(200, { actions: [action] });
}
