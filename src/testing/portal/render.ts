/**
 * The checkout portal page of the mock (`GET /portal/<paymentId>`): a self-contained HTML page
 * (inline CSS and JS, no external assets) that tells the buyer, in plain words, what they pay (the fiat
 * amount, and each option as `19.99 USDC on Base Sepolia`) and where the payment stands; drives the payment
 * through the mock's control endpoints (the test wallet buttons); follows it while it is not final; and
 * runs the 3-second countdown and redirect back to the merchant's site.
 *
 * Stable element ids for browser tests: `#merchant-name`, `#amount`, `#reference`, `#status` (the status
 * in words), `#message`, `#expiry` (`#expiry-time`), `#options`, `#pay`, `#fail`, `#paid-with`, `#redirect`,
 * `#countdown`, `#return-link`, `#close-hint`, `#notice`, `#payment-id` (not-found page);
 * `<body data-status>` holds the status name.
 *
 * @module
 */

import { isTerminalPaymentStatus } from "../../model/payments.js";
import type { MockPaymentOption } from "../store/options.js";
import type { MockMerchantRecord, MockPaymentRecord, PaymentStatus } from "../store/types.js";
import { formatAmount, withPaymentId } from "../store/validation.js";
import {
  CLOSE_PAGE_HINT,
  formatCountdown,
  optionLabel,
  rateNote,
  STATUS_VIEWS,
  type StatusView,
} from "./format.js";
import { escapeHtml, jsonForScript, renderPage } from "./page.js";
import { PORTAL_SCRIPT, REDIRECT_DELAY_SECONDS } from "./script.js";

export { escapeHtml } from "./page.js";

/** How often the page asks the mock for the payment while it is not final. */
const POLL_MS = 1000;
/** Longest payment id the not-found page echoes (escaped); longer ones are cut. */
const MAX_ECHOED_ID = 80;

/** Inputs of {@link renderPortal}. */
export interface PortalInput {
  /** The payment shown (expiry already applied). */
  payment: MockPaymentRecord;
  /** Its merchant (name and icon). */
  merchant: MockMerchantRecord | undefined;
  /** Its payment options. */
  options: MockPaymentOption[];
  /** Control prefix (the buttons call `<prefix>/payments/<id>/simulate`, the page polls `<prefix>/payments/<id>`). */
  controlPrefix: string;
  /**
   * The mock clock's time (epoch ms) when the page is rendered: the expiry countdown starts at
   * `payment.expiresAt - now`. Default `Date.now()`, which is wrong once the mock's clock was advanced.
   */
  now?: number;
}

/** Everything the page shows, worked out once from the input. */
interface PortalView {
  status: PaymentStatus;
  merchantName: string;
  views: Record<PaymentStatus, StatusView>;
  successRedirect: string | null;
  errorRedirect: string | null;
  expiresInMs: number | null;
  paidLabels: Record<string, string>;
}

/** The status words with the merchant's name filled in (plain text: the page escapes or uses textContent). */
function viewsFor(merchantName: string): Record<PaymentStatus, StatusView> {
  const views = {} as Record<PaymentStatus, StatusView>;
  for (const [status, view] of Object.entries(STATUS_VIEWS) as [PaymentStatus, StatusView][]) {
    // A function replacement: a name holding `$&` must be printed as written, not read as a pattern.
    views[status] = { ...view, message: view.message.replace("{merchant}", () => merchantName) };
  }
  return views;
}

/** The merchant's name as text, whatever the record holds (a seed may hold anything). */
function nameOf(merchant: MockMerchantRecord | undefined): string {
  const name = merchant?.name;
  return typeof name === "string" && name.trim() !== "" ? name : "the merchant";
}

function viewOf({ payment, merchant, options, now }: PortalInput): PortalView {
  const merchantName = nameOf(merchant);
  const redirects = payment.redirects;
  const paidLabels: Record<string, string> = {};
  for (const option of options) paidLabels[option.amount.unit.toLowerCase()] = optionLabel(option);
  return {
    status: payment.status,
    merchantName,
    views: viewsFor(merchantName),
    successRedirect: redirects ? withPaymentId(redirects.successUrl, payment.id) : null,
    errorRedirect: redirects ? withPaymentId(redirects.errorUrl, payment.id) : null,
    expiresInMs:
      payment.status === "requires_action" && Number.isFinite(payment.expiresAt)
        ? Math.max(0, payment.expiresAt - (now ?? Date.now()))
        : null,
    paidLabels,
  };
}

function merchantHeader(name: string, iconUrl: string | null): string {
  const icon = typeof iconUrl === "string" && /^https:\/\//i.test(iconUrl) ? iconUrl : null;
  const initial = escapeHtml(Array.from(name.trim())[0]?.toUpperCase() ?? "?");
  const avatar = icon
    ? `<img id="merchant-icon" src="${escapeHtml(icon)}" alt="" referrerpolicy="no-referrer">`
    : initial;
  return `<header class="merchant"><span class="avatar" aria-hidden="true">${avatar}</span>
<div><p class="eyebrow">Pay</p><h1 id="merchant-name">${escapeHtml(name)}</h1></div></header>`;
}

function summary(payment: MockPaymentRecord): string {
  const currency = payment.amount.unit.slice("iso4217/".length);
  return `<section class="summary" aria-label="Amount">
<p class="amount" id="amount">${escapeHtml(formatAmount(payment.amount.value, currency))}</p>
<p class="hint" id="rate">${escapeHtml(rateNote(currency))}</p>
<p class="reference">Order <span id="reference">${escapeHtml(payment.referenceId)}</span></p>
</section>`;
}

function statusSection(view: PortalView, payment: MockPaymentRecord): string {
  const shown = view.views[view.status];
  const expiry = view.expiresInMs === null ? "" : formatCountdown(view.expiresInMs);
  const paidUnit = payment.info?.optionAmount.unit.toLowerCase();
  const paidWith = paidUnit ? view.paidLabels[paidUnit] : undefined;
  // Only the status and its message are announced: the expiry clock would speak every second.
  return `<section id="state" class="state tone-${shown.tone}">
<div aria-live="polite" aria-atomic="true"><p class="badge" id="status">${escapeHtml(shown.title)}</p>
<p class="message" id="message">${escapeHtml(shown.message)}</p></div>
<p class="expiry" id="expiry"${view.expiresInMs === null ? " hidden" : ""}>Time left to pay: <span id="expiry-time">${expiry}</span></p>
<p class="paid-with" id="paid-with"${paidWith ? "" : " hidden"}>${paidWith ? `Paid with ${escapeHtml(paidWith)}` : ""}</p>
</section>`;
}

function optionItem(option: MockPaymentOption, index: number): string {
  return `<label class="option"><input type="radio" name="option" value="${escapeHtml(option.optionId)}" data-unit="${escapeHtml(
    option.amount.unit,
  )}"${index === 0 ? " checked" : ""}><span>${escapeHtml(optionLabel(option))}</span></label>`;
}

function payForm(status: PaymentStatus, options: MockPaymentOption[]): string {
  const choices = options.length
    ? `<fieldset id="options"><legend>Pay with</legend>${options.map(optionItem).join("")}</fieldset>`
    : "";
  return `<form id="pay-form"${status === "requires_action" ? "" : " hidden"}>
${choices}
<button id="pay" class="primary" type="submit">Pay with test wallet</button>
<button id="fail" class="secondary" type="button">Simulate a failed payment</button>
<p class="notice" id="notice" role="alert" hidden></p>
</form>`;
}

/** The way back to the shop (redirects on) or the "close this page" hint (redirects off). */
function returnSection(view: PortalView): string {
  const final = isTerminalPaymentStatus(view.status);
  const target = view.status === "succeeded" ? view.successRedirect : view.errorRedirect;
  const name = escapeHtml(view.merchantName);
  return `<div id="redirect"${final && target ? "" : " hidden"}>
<p class="hint" id="countdown"></p>
<a class="button primary" id="return-link" href="${escapeHtml(target ?? "#")}">Return to ${name}</a>
</div>
<p class="hint" id="close-hint"${final && !target ? "" : " hidden"}>${escapeHtml(CLOSE_PAGE_HINT)}</p>`;
}

function pageData(view: PortalView, payment: MockPaymentRecord, controlPrefix: string): string {
  const paymentPath = `${controlPrefix}/payments/${encodeURIComponent(payment.id)}`;
  const data = {
    status: view.status,
    merchantName: view.merchantName,
    views: view.views,
    statusUrl: paymentPath,
    simulateUrl: `${paymentPath}/simulate`,
    successRedirect: view.successRedirect,
    errorRedirect: view.errorRedirect,
    expiresInMs: view.expiresInMs,
    paidLabels: view.paidLabels,
    pollMs: POLL_MS,
    redirectSeconds: REDIRECT_DELAY_SECONDS,
  };
  return `<script type="application/json" id="portal-data">${jsonForScript(data)}</script>
<script>${PORTAL_SCRIPT}</script>`;
}

/** Renders the portal page of a payment. */
export function renderPortal(input: PortalInput): string {
  const { payment, merchant, options, controlPrefix } = input;
  const view = viewOf(input);
  return renderPage({
    title: `Pay ${nameOf(merchant)} (mock)`,
    bodyAttributes: ` data-status="${escapeHtml(payment.status)}"`,
    body: [
      merchantHeader(view.merchantName, merchant?.iconUrl ?? null),
      summary(payment),
      statusSection(view, payment),
      payForm(payment.status, options),
      returnSection(view),
    ].join("\n"),
    scripts: pageData(view, payment, controlPrefix),
  });
}

/** The page for a payment id the mock does not know: same look, a plain message, the id escaped and cut short. */
export function renderPortalNotFound(paymentId: string): string {
  const chars = Array.from(paymentId);
  const shown = chars.length > MAX_ECHOED_ID ? `${chars.slice(0, MAX_ECHOED_ID).join("")}…` : paymentId;
  return renderPage({
    title: "Payment not found (mock)",
    bodyAttributes: ' data-status="not_found"',
    body: `<section id="state" class="state tone-bad">
<h1 class="badge" id="status">We couldn't find this payment</h1>
<p class="message" id="message">The link may be mistyped, or the payment may belong to another test run. Go back to the shop and start the payment again.</p>
</section>
<p class="reference">Payment id <code id="payment-id">${escapeHtml(shown)}</code></p>`,
  });
}
