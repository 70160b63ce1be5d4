/**
 * A raw `node:http` server on 127.0.0.1 whose answers are scripted per request, for transport faults that MSW
 * cannot produce faithfully: a connection reset before or after the headers, a body cut off mid-way, an answer
 * that never comes. Every answer closes its connection, so each request is one fresh connection and request
 * counts are exact.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll } from "vitest";

/** What the server saw of one request. */
export interface SeenRequest {
  method: string;
  /** The request target as sent (path and query, not decoded). */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** `performance.now()` when the request was fully received. */
  at: number;
}

/** One scripted answer. */
export type Step =
  | { kind: "json"; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: "text"; status: number; body: string; contentType?: string; headers?: Record<string, string> }
  /** TCP reset (RST) as soon as the request is read: no status line at all. */
  | { kind: "resetBeforeHeaders" }
  /** Status line and headers (announcing a body), then a reset. */
  | { kind: "resetAfterHeaders"; status?: number }
  /** Headers announce the full length, half the body is written, then the connection is closed. */
  | { kind: "truncate"; status: number; body: string }
  /** Never answer (the client's timeout must fire). */
  | { kind: "hang" };

export interface FaultServer {
  readonly url: string;
  readonly requests: SeenRequest[];
  /** Answers the next requests in order; the last step repeats. */
  script(...steps: Step[]): void;
  /** Forgets requests and script, and drops open connections (hanging ones included) and lets clients see it. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

function rawHead(status: number, headers: Record<string, string>): string {
  const lines = [`HTTP/1.1 ${status} Status`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

export async function startFaultServer(): Promise<FaultServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let steps: Step[] = [];
  let index = 0;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: performance.now(),
      });
      const step = steps[Math.min(index, steps.length - 1)] ?? { kind: "json", status: 200, body: {} };
      index++;
      const socket = req.socket;
      switch (step.kind) {
        case "json":
        case "text": {
          const body = step.kind === "json" ? JSON.stringify(step.body) : step.body;
          const type = step.kind === "json" ? "application/json" : (step.contentType ?? "text/plain");
          res.writeHead(step.status, {
            "content-type": type,
            "content-length": String(Buffer.byteLength(body)),
            connection: "close",
            ...step.headers,
          });
          res.end(body);
          return;
        }
        case "resetBeforeHeaders":
          socket.resetAndDestroy();
          return;
        case "resetAfterHeaders": {
          const head = rawHead(step.status ?? 200, {
            "content-type": "application/json",
            "content-length": "512",
            connection: "close",
          });
          socket.write(head, () => setTimeout(() => socket.resetAndDestroy(), 20));
          return;
        }
        case "truncate": {
          const bytes = Buffer.from(step.body, "utf8");
          const head = rawHead(step.status, {
            "content-type": "application/json",
            "content-length": String(bytes.length),
            connection: "close",
          });
          const half = bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2)));
          socket.write(Buffer.concat([Buffer.from(head), half]), () =>
            setTimeout(() => socket.destroy(), 10),
          );
          return;
        }
        case "hang":
          return;
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // A reset socket reports ECONNRESET on our side too; it is expected here.
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(...next) {
      steps = next;
      index = 0;
    },
    async reset() {
      for (const socket of sockets) socket.destroy();
      // Give the client's connection pool the time to see the closes, so that no next request goes out on a
      // connection that is already gone.
      await new Promise((resolve) => setTimeout(resolve, 15));
      requests.length = 0;
      steps = [];
      index = 0;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A fault server for a test file: started before its tests, closed after them. */
export function useFaultServer(): FaultServer {
  let server: FaultServer | undefined;
  beforeAll(async () => {
    server = await startFaultServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const started = (): FaultServer => {
    if (!server) throw new Error("the fault server starts in beforeAll");
    return server;
  };
  return {
    get url() {
      return started().url;
    },
    get requests() {
      return started().requests;
    },
    script: (...steps) => started().script(...steps),
    reset: () => started().reset(),
    close: () => started().close(),
  };
}
