/**
 * Serves the mock over `node:http` (keep-alive). Never imports msw.
 *
 * @module
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { RawRequest, RawResponse } from "./http.js";
import { createMockServiceCore, type MockService, type MockServiceOptions } from "./service.js";

/** Options of {@link startMockServer}: where to listen, plus every service option. */
export interface MockServerOptions extends Omit<MockServiceOptions, "baseUrl"> {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Host; default `127.0.0.1`. Only loopback hosts are accepted. */
  host?: string;
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

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

function toRaw(req: IncomingMessage, body: string, base: string): RawRequest {
  const headers = req.headers;
  return {
    method: (req.method ?? "GET").toUpperCase(),
    url: new URL(req.url ?? "/", base),
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

function send(res: ServerResponse, out: RawResponse): void {
  if (out.drop) {
    res.socket?.destroy();
    return;
  }
  const payload = Buffer.from(out.body, "utf8");
  res.writeHead(out.status, { ...out.headers, "content-length": String(payload.length) });
  res.end(payload);
}

/** Starts the mock on `host:port` and resolves once it listens. The service's `baseUrl` is the server URL. */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 0, host = "127.0.0.1", maxBodyBytes = 1024 * 1024, ...serviceOptions } = options;
  if (!LOOPBACK.has(host)) throw new TypeError(`the mock server only listens on loopback hosts, not ${host}`);
  const core = createMockServiceCore(serviceOptions);
  let base = "http://127.0.0.1";

  const server: Server = createServer({ keepAlive: true }, (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (tooLarge) {
        send(res, {
          status: 413,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            message: `Body larger than ${maxBodyBytes} bytes.`,
            code: "payload_too_large",
          }),
        });
        return;
      }
      const body = chunks.length === 0 ? "" : Buffer.concat(chunks).toString("utf8");
      core.dispatch(toRaw(req, body, base)).then(
        (out) => send(res, out),
        (err: unknown) =>
          send(res, {
            status: 500,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ message: String(err), code: "internal_error" }),
          }),
      );
    });
    req.on("error", () => res.socket?.destroy());
  });
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === "IPv6" ? `[${address.address}]` : address.address;
  base = `http://${host === "localhost" ? "localhost" : hostPart}:${address.port}`;
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
