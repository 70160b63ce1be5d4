/**
 * The checkout portal page of the mock (`GET /portal/<paymentId>`): a self-contained HTML page
 * (inline CSS and JS, no external assets) that drives the payment through the mock's control
 * endpoints and runs the 3-second redirect back to the merchant's site.
 *
 * Stable element ids for browser tests: `#pay`, `#fail`, `#result`, `#countdown`, `#merchant-name`,
 * `#amount`, `#status`.
 *
 * @module
 */

import type { MockPaymentOption } from "./model/store.js";
import type { MockMerchantRecord, MockPaymentRecord } from "./model/types.js";
import { formatAmount, withPaymentId } from "./model/validation.js";

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** JSON safe to embed inside a `<script>` element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Inputs of {@link renderPortal}. */
export interface PortalInput {
  /** The payment shown. */
  payment: MockPaymentRecord;
  /** Its merchant (name and icon). */
  merchant: MockMerchantRecord | undefined;
  /** Its payment options. */
  options: MockPaymentOption[];
  /** Control prefix (the buttons call `<prefix>/payments/<id>/simulate`). */
  controlPrefix: string;
}

/** Renders the portal page of a payment. */
export function renderPortal({ payment, merchant, options, controlPrefix }: PortalInput): string {
  const currency = payment.amount.unit.slice("iso4217/".length);
  const amountText = formatAmount(payment.amount.value, currency);
  const name = merchant?.name ?? "Merchant";
  const icon = merchant?.iconUrl && /^https?:\/\//i.test(merchant.iconUrl) ? merchant.iconUrl : null;
  const data = {
    paymentId: payment.id,
    status: payment.status,
    simulateUrl: `${controlPrefix}/payments/${encodeURIComponent(payment.id)}/simulate`,
    successRedirect: payment.redirects ? withPaymentId(payment.redirects.successUrl, payment.id) : null,
    errorRedirect: payment.redirects ? withPaymentId(payment.redirects.errorUrl, payment.id) : null,
  };
  const optionItems = options
    .map(
      (o) =>
        `<li data-option-id="${escapeHtml(o.optionId)}">${escapeHtml(o.symbol)} on ${escapeHtml(o.chainId)} — ${escapeHtml(
          o.amount.value,
        )} units</li>`,
    )
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay ${escapeHtml(name)} (mock)</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;display:flex;justify-content:center;padding:40px 16px;color:#1d2330}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:28px;max-width:420px;width:100%}
.banner{background:#fff4d6;color:#7a5a00;font-size:12px;padding:6px 10px;border-radius:6px;margin-bottom:16px}
header{display:flex;align-items:center;gap:12px}
header img{width:48px;height:48px;border-radius:8px;object-fit:cover}
h1{font-size:20px;margin:0}
#amount{font-size:32px;font-weight:600;margin:20px 0 4px}
ul{padding-left:18px;color:#555;font-size:14px}
button{display:block;width:100%;padding:12px;margin-top:10px;border:0;border-radius:8px;font-size:16px;cursor:pointer}
#pay{background:#2f6fed;color:#fff}#fail{background:#eee;color:#333}
button:disabled{opacity:.5;cursor:default}
#result{margin-top:18px;font-weight:600}
#result.ok{color:#137a3a}#result.err{color:#b3261e}
</style>
</head>
<body>
<main>
<div class="banner">Test portal of the merchant-payments mock. No funds move.</div>
<header>${icon ? `<img id="merchant-icon" src="${escapeHtml(icon)}" alt="">` : ""}<h1 id="merchant-name">${escapeHtml(name)}</h1></header>
<div id="amount">${escapeHtml(amountText)}</div>
<div>Reference <code id="reference">${escapeHtml(payment.referenceId)}</code> · status <span id="status">${escapeHtml(payment.status)}</span></div>
<ul id="options">${optionItems}</ul>
<button id="pay" type="button">Pay with test wallet</button>
<button id="fail" type="button">Fail payment</button>
<div id="result" role="status" hidden></div>
<div id="countdown" hidden></div>
</main>
<script type="application/json" id="mock-payment">${jsonForScript(data)}</script>
<script>
(function(){
var d=JSON.parse(document.getElementById("mock-payment").textContent);
var pay=document.getElementById("pay"),fail=document.getElementById("fail");
var result=document.getElementById("result"),cd=document.getElementById("countdown"),st=document.getElementById("status");
var FINAL={succeeded:1,failed:1,cancelled:1,expired:1};
function finish(status){
  st.textContent=status;pay.disabled=true;fail.disabled=true;
  var ok=status==="succeeded";
  result.hidden=false;result.className=ok?"ok":"err";
  var target=ok?d.successRedirect:d.errorRedirect;
  if(!target){result.textContent=ok?"Payment successful. You can close this page.":"The payment did not go through ("+status+").";return;}
  result.textContent=ok?"Payment successful.":"Payment failed ("+status+").";
  var n=3;cd.hidden=false;
  function tick(){cd.textContent="Redirecting in "+n+"…";if(n<=0){window.location.assign(target);return;}n--;setTimeout(tick,1000);}
  tick();
}
function run(outcome){
  pay.disabled=true;fail.disabled=true;result.hidden=false;result.className="";result.textContent="Processing…";
  fetch(d.simulateUrl,{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify({outcome:outcome})})
  .then(function(r){return r.json().then(function(b){return {ok:r.ok,b:b};});})
  .then(function(x){if(x.ok){finish(x.b.status);}else{result.className="err";result.textContent=x.b.message||"Error";if(x.b.details&&FINAL[x.b.details.status]){finish(x.b.details.status);}}})
  .catch(function(){result.className="err";result.textContent="Network error";pay.disabled=false;fail.disabled=false;});
}
pay.addEventListener("click",function(){run("success");});
fail.addEventListener("click",function(){run("failure");});
if(FINAL[d.status]){finish(d.status);}
})();
</script>
</body>
</html>`;
}

/** A minimal HTML page for an unknown payment. */
export function renderPortalNotFound(paymentId: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment not found</title></head><body><h1>Payment not found</h1><p>No payment <code>${escapeHtml(
    paymentId,
  )}</code> in this mock.</p></body></html>`;
}
