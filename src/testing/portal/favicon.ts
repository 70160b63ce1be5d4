/**
 * The portal's favicon: a small inline SVG (a rounded square with a check mark), served at
 * `GET /favicon.ico` so that a browser showing the portal finds one (the pages link it).
 *
 * @module
 */

import type { RawResponse } from "../http.js";

const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="7" fill="#4f46e5"/>' +
  '<path d="M9 16.5l4.5 4.5L23 11.5" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>' +
  "</svg>";

/** The favicon answer. */
export function favicon(): RawResponse {
  return {
    status: 200,
    headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" },
    body: FAVICON_SVG,
  };
}
