/**
 * Serves the mock over `node:http` (keep-alive). Never imports msw.
 *
 * @module
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isLoopback } from "../validate/rules.js";
import type { RawRequest, RawResponse } from "./http.js";
import { createMockServiceCore, type MockService, type MockServiceOptions } from "./service.js";

/** Options of {@link startMockServer}: where to listen, plus every service option. */
export interface MockServerOptions extends Omit<MockServiceOptions, "baseUrl"> {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /**
   * Interface to listen on; default `127.0.0.1`. A host other than loopback (`localhost`, 127.0.0.0/8,
   * `::1`), such as `0.0.0.0` in a container, needs `allowRemote: true`: the mock has no authentication.
   */
  host?: string;
  /** Allows a non-loopback `host` (a CI service, Docker Compose). Default false. */
  allowRemote?: boolean;
  /**
   * Names a request's `Host` header may carry besides the loopback names and `host` itself, e.g. the
   * Compose service name `mock`. Any other `Host` is refused (421), which defeats DNS rebinding. The
   * first one also names the server in its URL (payment links) when `host` is a wildcard (`0.0.0.0`).
   */
  allowedHosts?: readonly string[];
  /** Maximum request body size in bytes (413 beyond). Default 1 MiB. */
  maxBodyBytes?: number;
}

/** A running mock server. */
export interface MockServer {
  /** Base URL, e.g. `http://127.0.0.1:54321` (also the service's `baseUrl`). */
  readonly url: string;
  /** The mock service behind it (controls, inspection). */
  readonly service: MockService;
  /** Stops the server and closes open connections. */
  close(): Promise<void>;
}

const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

/** The lower-case name of a `Host` header value, without port or IPv6 brackets' port. */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(0, value.indexOf("]") + 1);
  const colon = value.indexOf(":");
  return colon === -1 ? value : value.slice(0, colon);
}

function bracketed(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function allowedHostNames(host: string, extra: readonly string[]): Set<string> {
  const names = ["localhost", "127.0.0.1", "[::1]", bracketed(host), ...extra.map(bracketed)];
  return new Set(names.map((name) => name.toLowerCase()));
}

function checkHost(host: string, allowRemote: boolean): void {
  const local = isLoopback(bracketed(host)) || isLoopback(host);
  if (!local && !allowRemote) {
    throw new TypeError(
      `the mock server listens on loopback hosts only, not ${host}: pass allowRemote: true (CLI --allow-remote) to serve other machines; the mock has no authentication`,
    );
  }
}

function toRaw(req: IncomingMessage, body: string, url: URL): RawRequest {
  const headers = req.headers;
  return {
    method: (req.method ?? "GET").toUpperCase(),
    url,
    header(name) {
      const v = headers[name];
      return Array.isArray(v) ? v.join(", ") : v;
    },
    *headerEntries() {
      for (const [k, v] of Object.entries(headers)) {
        if (v !== undefined) yield [k, Array.isArray(v) ? v.join(", ") : v] as [string, string];
      }
    },
    body,
  };
}

const plainError = (status: number, code: string, message: string): RawResponse => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ message, code }),
});

/** Writes an answer; a failure to write (a closed socket, a bad header) drops the connection instead. */
function send(res: ServerResponse, out: RawResponse): void {
  try {
    if (out.drop) {
      res.socket?.destroy();
      return;
    }
    const payload = Buffer.from(out.body, "utf8");
    res.writeHead(out.status, { ...out.headers, "content-length": String(payload.length) });
    res.end(payload);
  } catch {
    res.socket?.destroy();
  }
}

/** The answer to a request the core never sees: a foreign `Host` (DNS rebinding) or a bad target. */
function refuse(req: IncomingMessage, base: string, hosts: Set<string>): RawResponse | URL {
  const host = req.headers.host;
  if (host === undefined || !hosts.has(hostName(host))) {
    return plainError(421, "invalid_host", "This Host is not one the mock server was started for.");
  }
  try {
    const target = req.url ?? "/";
    if (!target.startsWith("/")) throw new TypeError("not origin-form");
    return new URL(target, base);
  } catch {
    return plainError(400, "invalid_request_target", "The request target is not a valid path.");
  }
}

function readBody(req: IncomingMessage, maxBodyBytes: number, done: (body: string | null) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size <= maxBodyBytes) chunks.push(chunk);
  });
  req.on("end", () => done(size > maxBodyBytes ? null : Buffer.concat(chunks).toString("utf8")));
  req.on("error", () => req.socket.destroy());
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Starts the mock on `host:port` and resolves once it listens. The service's `baseUrl` is the server URL. */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 0, host = "127.0.0.1", allowRemote = false, allowedHosts = [], ...rest } = options;
  const { maxBodyBytes = 1024 * 1024, ...serviceOptions } = rest;
  checkHost(host, allowRemote);
  const core = createMockServiceCore(serviceOptions);
  const hosts = allowedHostNames(host, allowedHosts);
  let base = "http://127.0.0.1";

  const server: Server = createServer({ keepAlive: true }, (req, res) => {
    const target = refuse(req, base, hosts);
    readBody(req, maxBodyBytes, (body) => {
      if (!(target instanceof URL)) return send(res, target);
      if (body === null)
        return send(res, plainError(413, "payload_too_large", `Body larger than ${maxBodyBytes} bytes.`));
      core.dispatch(toRaw(req, body, target)).then(
        (out) => send(res, out),
        () => send(res, plainError(500, "internal_error", "Mock internal error.")),
      );
    });
  });
  server.keepAliveTimeout = 5000;
  await listen(server, port, host);
  const address = server.address() as AddressInfo;
  const named = WILDCARDS.has(host) ? allowedHosts[0] : host === "localhost" ? "localhost" : undefined;
  base = `http://${named !== undefined ? bracketed(named) : bracketed(address.address)}:${address.port}`;
  core.setBaseUrl(base);

  let closed: Promise<void> | undefined;
  return {
    url: base,
    service: core.service,
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
