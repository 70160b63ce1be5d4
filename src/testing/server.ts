/**
 * Serves the mock over `node:http` (keep-alive). Never imports msw.
 *
 * @module
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Dispatcher } from "./dispatch.js";
import { allowedHostNames, bracketed, checkListenHost, checkPublicUrl, parseHost, soleHost } from "./host.js";
import type { RawRequest, RawResponse } from "./http.js";
import { createMockServiceCore, type MockService, type MockServiceOptions } from "./service.js";
import { MockServiceError } from "./store/errors.js";

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
   * Compose service name `mock`. Any other `Host` is refused (421), which defeats DNS rebinding.
   */
  allowedHosts?: readonly string[];
  /**
   * The address links in answers (`paymentLink`, `gatewayUrl`) use, e.g. `http://localhost:4010` when a browser on
   * the host opens pages of a mock that other containers call `http://mock:4010`. Default: the origin named by
   * each request's (allowed) `Host`, so every caller gets links in its own name for the mock.
   */
  publicUrl?: string;
  /** Maximum request body size in bytes (413 beyond). Default 1 MiB. */
  maxBodyBytes?: number;
}

/** A running mock server. */
export interface MockServer {
  /** Base URL, e.g. `http://127.0.0.1:54321` (also the service's `baseUrl`); the `publicUrl` when one was given. */
  readonly url: string;
  /** The port the server listens on (the one `port: 0` picked). */
  readonly port: number;
  /** The mock service behind it (controls, inspection). */
  readonly service: MockService;
  /** Stops the server and closes open connections. */
  close(): Promise<void>;
}

const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

function toRaw(req: IncomingMessage, body: string, url: URL, linkBase: string): RawRequest {
  const headers = req.headers;
  return {
    method: (req.method ?? "GET").toUpperCase(),
    url,
    linkBase,
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

/** The request's URL and link base, or the error that refuses it before routing. */
function target(
  req: IncomingMessage,
  hosts: Set<string>,
  publicUrl: string | undefined,
): MockServiceError | { url: URL; linkBase: string } {
  const host = parseHost(soleHost(req.rawHeaders));
  if (host === null || !hosts.has(host.name)) {
    return new MockServiceError(
      421,
      "invalid_host",
      "This Host is not one the mock server answers to: start it with --allowed-host NAME (startMockServer's allowedHosts) for each name callers use, e.g. --allowed-host mock in Docker Compose.",
    );
  }
  const path = req.url ?? "/";
  try {
    if (!path.startsWith("/")) throw new TypeError("not origin-form");
    return { url: new URL(path, host.origin), linkBase: publicUrl ?? host.origin };
  } catch {
    return new MockServiceError(400, "invalid_request_target", "The request target is not a valid path.");
  }
}

/** Reads a request's body whole; null when it is larger than `maxBodyBytes`. */
function collectBody(req: IncomingMessage, maxBodyBytes: number, done: (body: string | null) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size <= maxBodyBytes) chunks.push(chunk);
  });
  req.on("end", () => done(size > maxBodyBytes ? null : Buffer.concat(chunks).toString("utf8")));
  req.on("error", () => req.socket.destroy());
}

function handler(
  dispatcher: Dispatcher,
  hosts: Set<string>,
  publicUrl: string | undefined,
  maxBodyBytes: number,
) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const found = target(req, hosts, publicUrl);
    const headerOf = { header: (name: string) => [req.headers[name]].flat().join(", ") || undefined };
    collectBody(req, maxBodyBytes, (body) => {
      if (found instanceof MockServiceError) return send(res, dispatcher.refuse(headerOf, found));
      if (body === null) {
        const tooLarge = new MockServiceError(
          413,
          "payload_too_large",
          `Body larger than ${maxBodyBytes} bytes.`,
        );
        return send(res, dispatcher.refuse(headerOf, tooLarge));
      }
      dispatcher.dispatch(toRaw(req, body, found.url, found.linkBase)).then(
        (out) => send(res, out),
        () => res.socket?.destroy(),
      );
    });
  };
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

/** The server's own URL: the public one, else the listening address (loopback for a wildcard, never 0.0.0.0). */
function serverUrl(host: string, address: AddressInfo, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return publicUrl;
  const name = WILDCARDS.has(host)
    ? "127.0.0.1"
    : host === "localhost"
      ? "localhost"
      : bracketed(address.address);
  return `http://${name}:${address.port}`;
}

/** Starts the mock on `host:port` and resolves once it listens. The service's `baseUrl` is the server URL. */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const {
    port = 0,
    host = "127.0.0.1",
    allowRemote = false,
    allowedHosts = [],
    publicUrl,
    ...rest
  } = options;
  const { maxBodyBytes = 1024 * 1024, ...serviceOptions } = rest;
  checkListenHost(host, allowRemote);
  const linkUrl = publicUrl === undefined ? undefined : checkPublicUrl(publicUrl);
  const core = createMockServiceCore(serviceOptions);
  const hosts = allowedHostNames(host, allowedHosts);
  if (linkUrl !== undefined) hosts.add(new URL(linkUrl).hostname.toLowerCase());
  const server: Server = createServer(
    { keepAlive: true },
    handler(core.dispatcher, hosts, linkUrl, maxBodyBytes),
  );
  server.keepAliveTimeout = 5000;
  await listen(server, port, host);
  const address = server.address() as AddressInfo;
  const base = serverUrl(host, address, linkUrl);
  core.setBaseUrl(base);

  let closed: Promise<void> | undefined;
  return {
    url: base,
    port: address.port,
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
