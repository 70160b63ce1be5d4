/**
 * The pages a browser opens: the checkout portal of a payment and the favicon.
 *
 * @module
 */

import { html, type RawResponse } from "../http.js";
import type { Route } from "../routes.js";
import type { MockModel } from "../store/state.js";
import { favicon } from "./favicon.js";
import { renderPortal, renderPortalNotFound } from "./render.js";

/** What a page route's handler receives. */
export interface PageContext {
  /** The model. */
  model: MockModel;
  /** Prefix of the control endpoints (the page's buttons call them). */
  controlPrefix: string;
  /** Decoded path parameters. */
  params: Record<string, string>;
}

/** A page route. */
export interface PageRoute extends Route<PageContext> {
  /** Answers the request. */
  readonly handle: (context: PageContext) => RawResponse;
}

function portal({ model, controlPrefix, params }: PageContext): RawResponse {
  const payment = model.payments.find(params.paymentId!);
  if (!payment) return html(404, renderPortalNotFound(params.paymentId!));
  const merchant = model.merchants.find(payment.merchantId);
  const options = model.payments.options(payment);
  return html(200, renderPortal({ payment, merchant, options, controlPrefix, now: model.now() }));
}

/** The pages a browser opens. */
export const PAGE_ROUTES: readonly PageRoute[] = [
  { method: "GET", path: "/portal/:paymentId", handle: portal },
  { method: "GET", path: "/favicon.ico", handle: favicon },
];
