/**
 * The `Host` header as the server reads it: parsed as a URL authority (name and port, nothing else), so
 * `127.0.0.1:80@attacker.example` is not taken for `127.0.0.1`.
 *
 * @module
 */

import { isLoopback } from "../validate/rules.js";

/** A parsed `Host`: its lower-case name (IPv6 in brackets) and the origin it names over http. */
export interface ParsedHost {
  /** `localhost`, `127.0.0.1`, `[::1]`, `mock`. */
  name: string;
  /** `http://mock:4010`. */
  origin: string;
}

// Letters, digits, dots, dashes, colons and brackets: no userinfo (`@`), path, query or space can hide in it.
const AUTHORITY = /^[A-Za-z0-9.\-:[\]]+$/;

/** Parses a `Host` header value; null when it is not a plain `name[:port]`. */
export function parseHost(header: string | undefined): ParsedHost | null {
  if (header === undefined || !AUTHORITY.test(header)) return null;
  try {
    const url = new URL(`http://${header}`);
    if (url.username !== "" || url.password !== "" || url.pathname !== "/" || url.hostname === "")
      return null;
    // Only a Host written as URL parsing writes it: parsing turns `127.0.0.1.`, `127.1`, `0x7f.0.0.1`, `localhost.`
    // or `[0:0::1]` into an allowed name, which a rebinding page could then use for its own.
    const written = header.toLowerCase();
    const canonical =
      url.port === "" ? [url.hostname, `${url.hostname}:80`] : [`${url.hostname}:${url.port}`];
    if (!canonical.includes(written)) return null;
    return { name: url.hostname, origin: url.origin };
  } catch {
    return null;
  }
}

/**
 * The request's `Host` value when it sent exactly one `Host` line, else undefined: Node keeps the first of several,
 * and RFC 9112 (3.2) says such a request is refused, not read by its first line.
 */
export function soleHost(rawHeaders: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() !== "host") continue;
    if (found !== undefined) return undefined;
    found = rawHeaders[i + 1];
  }
  return found;
}

/** A host as it appears in a URL: IPv6 in brackets. */
export function bracketed(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** The names a request's `Host` may carry: the loopback names, the listening host and the extra ones. */
export function allowedHostNames(host: string, extra: readonly string[]): Set<string> {
  const names = ["localhost", "127.0.0.1", "[::1]", bracketed(host), ...extra.map(bracketed)];
  return new Set(names.map((name) => name.toLowerCase()));
}

/** Throws unless `host` is loopback or remote listening was asked for. */
export function checkListenHost(host: string, allowRemote: boolean): void {
  const local = isLoopback(bracketed(host)) || isLoopback(host);
  if (!local && !allowRemote) {
    throw new TypeError(
      `the mock server listens on loopback hosts only, not ${host}: pass allowRemote: true (CLI --allow-remote) to serve other machines; the mock has no authentication`,
    );
  }
}

/** A `publicUrl` checked: an absolute http(s) URL, without query or fragment, no trailing slash. */
export function checkPublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`publicUrl must be an absolute URL such as http://localhost:4010, not ${value}`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash || url.username) {
    throw new TypeError(
      `publicUrl must be an http(s) address without query, fragment or credentials: ${value}`,
    );
  }
  return url.href.replace(/\/+$/, "");
}
