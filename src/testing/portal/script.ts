/**
 * The portal's inline script. It reads the page's data from `<script id="portal-data">` and:
 * - pays or fails through the mock's simulate control endpoint (the test wallet buttons);
 * - polls the payment while it is not final, so a payment completed, cancelled or expired elsewhere
 *   shows here (one request a second, stopped once the payment is final);
 * - counts down to expiry, in named units (`14 min 51 s`: never read as a time of day);
 * - once final, counts down 3 seconds and redirects to `<successUrl|errorUrl>?payment_id=…` when
 *   redirects are on (the spec's redirect), else tells the buyer they may close the page.
 *
 * Written as plain browser JavaScript in a string: the build must not rewrite code that runs in the page.
 *
 * @module
 */

/** Seconds the portal counts down before it redirects (the spec's "3 seconds countdown"). */
export const REDIRECT_DELAY_SECONDS = 3;

/** The inline script of the portal page. */
export const PORTAL_SCRIPT = `(function(){
"use strict";
var d=JSON.parse(document.getElementById("portal-data").textContent);
function el(id){return document.getElementById(id);}
var FINAL={succeeded:true,failed:true,expired:true,cancelled:true};
var current=null,busy=false,redirecting=false,timer=null;
var expiresAt=d.expiresInMs===null?null:Date.now()+d.expiresInMs;

function clock(ms){
  var t=Math.max(0,Math.ceil(ms/1000)),h=Math.floor(t/3600),m=Math.floor(t%3600/60),s=t%60;
  function two(n){return (n<10?"0":"")+n;}
  if(h>0)return h+" h "+two(m)+" min "+two(s)+" s";
  return m>0?m+" min "+two(s)+" s":s+" s";
}
function show(status){
  var v=d.views[status];
  if(!v||status===current)return;
  current=status;
  document.body.setAttribute("data-status",status);
  el("state").className="state tone-"+v.tone;
  el("status").textContent=v.title;
  el("message").textContent=v.message;
  el("pay-form").hidden=status!=="requires_action";
  el("expiry").hidden=status!=="requires_action"||expiresAt===null;
  if(FINAL[status])finish(status);
}
function paidWith(record){
  var unit=record&&record.info&&record.info.optionAmount&&record.info.optionAmount.unit;
  var label=unit?d.paidLabels[String(unit).toLowerCase()]:null;
  if(label){el("paid-with").textContent="Paid with "+label;el("paid-with").hidden=false;}
}
function finish(status){
  stop();
  var target=status==="succeeded"?d.successRedirect:d.errorRedirect;
  if(!target){el("close-hint").hidden=false;return;}
  var link=el("return-link");
  link.href=target;
  el("redirect").hidden=false;
  if(redirecting)return;
  redirecting=true;
  var n=d.redirectSeconds;
  function tick(){
    el("countdown").textContent="Returning to "+d.merchantName+" in "+n+"\\u2026";
    if(n<=0){window.location.assign(target);return;}
    n--;
    setTimeout(tick,1000);
  }
  tick();
}
function stop(){if(timer!==null){clearInterval(timer);timer=null;}}
function request(url,init){
  return fetch(url,init).then(function(r){
    return r.json().then(function(b){return {ok:r.ok,body:b};},function(){return {ok:false,body:{}};});
  });
}
function poll(){
  if(busy||current===null||FINAL[current])return;
  request(d.statusUrl,{headers:{"Accept":"application/json","Content-Type":"application/json"},cache:"no-store"})
  .then(function(x){
    if(!x.ok||busy||typeof x.body.status!=="string")return;
    if(x.body.status==="succeeded")paidWith(x.body);
    show(x.body.status);
  },function(){});
}
function everySecond(){
  if(expiresAt!==null&&current==="requires_action"){
    el("expiry-time").textContent=clock(expiresAt-Date.now());
  }
  poll();
}
function simulate(outcome){
  var picked=document.querySelector("input[name=option]:checked");
  var body={outcome:outcome};
  if(picked)body.optionId=picked.value;
  busy=true;
  el("notice").hidden=true;
  el("pay").disabled=true;el("fail").disabled=true;
  show("processing");
  request(d.simulateUrl,{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify(body)})
  .then(function(x){
    busy=false;
    if(x.ok&&FINAL[x.body.status]){
      if(x.body.status==="succeeded"&&picked)paidWith({info:{optionAmount:{unit:picked.getAttribute("data-unit")}}});
      show(x.body.status);
      return;
    }
    var known=x.body&&x.body.details&&x.body.details.status;
    if(FINAL[known]){show(known);return;}
    failedToSend("The payment could not be started. Please try again.");
  },function(){busy=false;failedToSend("The payment service could not be reached. Please try again.");});
}
function failedToSend(text){
  current=null;
  show("requires_action");
  el("pay").disabled=false;el("fail").disabled=false;
  el("notice").textContent=text;el("notice").hidden=false;
}
el("pay-form").addEventListener("submit",function(e){e.preventDefault();simulate("success");});
el("fail").addEventListener("click",function(){simulate("failure");});
show(d.status);
if(!FINAL[d.status])timer=setInterval(everySecond,d.pollMs);
})();`;
