/**
 * The portal's style sheet, inlined in every page (the mock serves no assets). Light and dark schemes,
 * one narrow card that fits a phone, visible focus, no motion for those who ask for none.
 *
 * @module
 */

/** CSS of the portal pages. */
export const PORTAL_CSS = `
:root{color-scheme:light dark;--bg:#f3f4f7;--card:#fff;--text:#1b2130;--muted:#525b6e;--line:#e1e4ea;
--accent:#2456d6;--accent-text:#fff;--good:#106b34;--good-bg:#e3f4e9;--bad:#a4231a;--bad-bg:#fbe9e7;
--wait:#7a4f00;--wait-bg:#fff3d6;--busy:#1d4fb8;--busy-bg:#e6eefc;--banner:#fff6dc;--banner-text:#6b4c00}
@media (prefers-color-scheme:dark){:root{--bg:#12151c;--card:#1c2029;--text:#eef0f4;--muted:#a9b0be;--line:#2f3542;
--accent:#5b8cff;--accent-text:#0b1020;--good:#7ddc9e;--good-bg:#16301f;--bad:#ff9c92;--bad-bg:#3a1d1b;
--wait:#ffd27a;--wait-bg:#3a2e12;--busy:#9dbcff;--busy-bg:#1c2a4a;--banner:#3a2e12;--banner-text:#ffd27a}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
display:flex;justify-content:center;align-items:flex-start;padding:32px 16px}
main{width:100%;max-width:440px;background:var(--card);border:1px solid var(--line);border-radius:16px;padding:24px;
box-shadow:0 6px 24px rgba(15,23,42,.08)}
.banner{margin:0 0 20px;padding:6px 10px;border-radius:8px;background:var(--banner);color:var(--banner-text);font-size:13px}
.merchant{display:flex;align-items:center;gap:12px}
.avatar{flex:none;width:44px;height:44px;border-radius:10px;display:grid;place-items:center;background:var(--busy-bg);
color:var(--busy);font-weight:700;font-size:20px;overflow:hidden}
.avatar img{width:100%;height:100%;object-fit:cover}
.eyebrow{margin:0;color:var(--muted);font-size:13px}
h1{margin:0;font-size:20px;line-height:1.3;overflow-wrap:anywhere}
.summary{margin:20px 0;padding:16px 0;border-top:1px solid var(--line);border-bottom:1px solid var(--line)}
.amount{margin:0;font-size:34px;font-weight:700;letter-spacing:-.01em;font-variant-numeric:tabular-nums}
.reference{margin:4px 0 0;color:var(--muted);font-size:14px;overflow-wrap:anywhere}
.state{border-radius:12px;padding:14px 16px;margin-bottom:16px}
.state p{margin:0}
.badge{font-weight:700;font-size:17px;display:flex;align-items:center;gap:8px}
.state .message{margin-top:4px}
.tone-waiting{background:var(--wait-bg);color:var(--wait)}
.tone-busy{background:var(--busy-bg);color:var(--busy)}
.tone-good{background:var(--good-bg);color:var(--good)}
.tone-bad{background:var(--bad-bg);color:var(--bad)}
.tone-busy .badge::before{content:"";width:14px;height:14px;border-radius:50%;border:2px solid currentColor;
border-right-color:transparent;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.tone-busy .badge::before{animation:none}}
.expiry{margin-top:8px;font-size:14px;font-variant-numeric:tabular-nums}
fieldset{border:0;margin:0 0 12px;padding:0}
legend{padding:0;margin-bottom:8px;font-weight:600}
.option{display:flex;align-items:center;gap:10px;padding:12px;border:1px solid var(--line);border-radius:10px;margin-bottom:8px;cursor:pointer}
.option:has(input:checked){border-color:var(--accent);box-shadow:0 0 0 1px var(--accent)}
.option input{accent-color:var(--accent);width:18px;height:18px;margin:0}
button,.button{display:block;width:100%;min-height:48px;padding:12px 16px;margin-top:10px;border-radius:10px;font:inherit;
font-weight:600;text-align:center;text-decoration:none;cursor:pointer;border:1px solid transparent}
.primary{background:var(--accent);color:var(--accent-text)}
.secondary{background:transparent;color:var(--text);border-color:var(--line)}
button:disabled{opacity:.55;cursor:progress}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.notice{margin:12px 0 0;color:var(--bad);font-size:14px}
.hint{margin:12px 0 0;color:var(--muted);font-size:14px}
.paid-with{margin:8px 0 0;font-size:14px}
[hidden]{display:none!important}
footer{margin-top:20px;color:var(--muted);font-size:12px;text-align:center}
`;
