/**
 * The frame every portal page shares: document head (inline CSS, favicon link), the test-mode banner and
 * the escaping helpers. Everything a page prints that came from a request or a record goes through
 * {@link escapeHtml} (element text, quoted attributes) or {@link jsonForScript} (data for the script).
 *
 * @module
 */

import { PORTAL_CSS } from "./styles.js";

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** JSON safe to embed inside a `<script>` element (no `</script>`, no HTML comment, no line separators). */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** What a page puts in the frame. */
export interface PageParts {
  /** Document title (plain text; escaped here). */
  title: string;
  /** The card's inner HTML (already escaped by the caller). */
  body: string;
  /** Attributes of `<body>` (already escaped by the caller), e.g. ` data-status="paid"`. */
  bodyAttributes?: string;
  /** Trailing HTML after the card: the data and script elements. */
  scripts?: string;
}

/** A complete portal document. */
export function renderPage({ title, body, bodyAttributes = "", scripts = "" }: PageParts): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/favicon.ico">
<style>${PORTAL_CSS}</style>
</head>
<body${bodyAttributes}>
<main>
<p class="banner">Test checkout of the merchant-payments mock: no real funds move.</p>
${body}
</main>
${scripts}
</body>
</html>`;
}
