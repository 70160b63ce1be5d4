/**
 * The wire's reading edges, as a merchant meets them: a chain of content codings is bounded; one
 * socket pool per origin is shared by a client and every `withOptions()` child; a user `fetch` answering with any
 * body kind (Node stream as node-fetch 2 gives, text only) is read; a failure once the status arrived is never
 * "could not reach the service"; a malformed answer's raw bytes never reach an error's `cause`.
 */
import { createServer, type Server } from "node:http";
import {
  type AddressInfo,
  createServer as createTcpServer,
  type Socket,
  type Server as TcpServer,
} from "node:net";
import { Readable } from "node:stream";
import { inspect } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ConnectionError,
  MerchantPaymentsClient,
  MerchantPaymentsError,
  ResponseValidationError,
} from "../../../src/index.js";
import { type MockServer, startMockServer } from "../../../src/testing/index.js";
import { failureOf } from "../../helpers/outcomes.js";

const KEY = "mock_test_sk_WireEdges0123456789";
const STATUS = JSON.stringify({ status: "processing", isFinal: false, pollInMs: 1000 });
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** An HTTP server on 127.0.0.1 counting the connections open at once. */
async function httpServer(answer: (res: import("node:http").ServerResponse) => void) {
  const seen = { open: 0, mostOpen: 0, requests: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    seen.requests++;
    req.resume();
    req.on("end", () => answer(res));
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    seen.open++;
    seen.mostOpen = Math.max(seen.mostOpen, seen.open);
    socket.on("close", () => {
      seen.open--;
      sockets.delete(socket);
    });
  });
  const url = await listening(server, sockets);
  return { url, seen };
}

/** Starts `server` on a free loopback port, closed with its sockets after the test; resolves to its URL. */
async function listening(server: Server | TcpServer, sockets: Set<Socket>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A TCP server writing `raw` as its whole answer to every request. */
async function rawServer(raw: Buffer): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.once("data", () => socket.end(raw));
  });
  return listening(server, sockets);
}

type ClientOptions = ConstructorParameters<typeof MerchantPaymentsClient>[0];

function client(baseUrl: string, options: ClientOptions = {}) {
  return new MerchantPaymentsClient({
    apiKey: KEY,
    baseUrl,
    merchantId: "mrch_edges",
    maxRetries: 0,
    ...options,
  });
}

/**
 * The two builds' wires: the Node build's default (`node:http`), and the fetch build's default, which is the global
 * `fetch` under the user-fetch reading (`wire/fetch-default.ts` is `createUserFetch(globalThis.fetch)`), reached here
 * through the `fetch` option. Every reading edge must classify a failure alike on both.
 */
const WIRES: [string, ClientOptions][] = [
  ["Node build", {}],
  ["fetch build", { fetch: (input, init) => globalThis.fetch(input, init) }],
];

describe.each(WIRES)("content codings: at most 5 (%s)", (_wire, wire) => {
  const gzipped = (times: number) => {
    let body = Buffer.from(STATUS);
    for (let i = 0; i < times; i++) body = gzipSync(body);
    return body;
  };

  /** A server whose answer is gzipped `times` times, each coding named in Content-Encoding. */
  const codedServer = (times: number) =>
    httpServer((res) => {
      res.writeHead(200, {
        "content-type": "application/json",
        "content-encoding": Array(times).fill("gzip").join(", "),
      });
      res.end(gzipped(times));
    });

  it("5 codings are decoded", async () => {
    const server = await codedServer(5);
    await expect(client(server.url, wire).payments.status("pay_5")).resolves.toMatchObject({
      status: "processing",
    });
  });

  it.each([6, 7])(
    "%i codings are a typed failure of the answer, not decoded, and not 'could not reach the service'",
    async (times) => {
      const server = await codedServer(times);
      const error = await failureOf(client(server.url, wire).payments.status("pay_6"));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error).not.toBeInstanceOf(ConnectionError);
    },
  );
});

describe("one socket pool per origin for a client and its withOptions() children", () => {
  it("maxSockets bounds the connections of the whole family (the per-request withOptions recipe)", async () => {
    const server = await httpServer((res) => {
      setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(STATUS), 20);
    });
    const root = client(server.url, { maxSockets: 2 });
    const calls = Array.from({ length: 12 }, (_, i) =>
      root.withOptions({ defaultHeaders: { "x-request": String(i) } }).payments.status(`pay_${i}`),
    );
    await Promise.all(calls);
    expect(server.seen.requests).toBe(12);
    expect(server.seen.mostOpen).toBeLessThanOrEqual(2);
  });
});

describe("a user fetch answering with any body kind", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer();
  });
  afterAll(() => mock.close());
  beforeEach(() => mock.service.reset());

  const viaMock = (fetch: typeof globalThis.fetch) =>
    new MerchantPaymentsClient({
      apiKey: mock.service.keys.test,
      baseUrl: mock.url,
      merchantId: mock.service.merchantId,
      fetch,
    });
  const posts = () => mock.service.requests.filter((r) => r.method === "POST" && r.path.startsWith("/v1/"));
  const amount = { unit: "iso4217/USD", value: "1050" };

  /** node-fetch 2: a Node stream as `body`, headers of its own class. */
  const nodeStreamFetch: typeof fetch = async (input, init) => {
    const answer = await globalThis.fetch(input, init);
    const bytes = Buffer.from(await answer.arrayBuffer());
    const body = Readable.from([bytes.subarray(0, 7), bytes.subarray(7)]);
    return { status: answer.status, ok: answer.ok, headers: answer.headers, body } as unknown as Response;
  };
  /** A fetch whose answer has only `text()`. */
  const textOnlyFetch: typeof fetch = async (input, init) => {
    const answer = await globalThis.fetch(input, init);
    const text = await answer.text();
    return { status: answer.status, headers: answer.headers, text: async () => text } as unknown as Response;
  };

  it.each([
    ["a Node stream (node-fetch 2)", nodeStreamFetch],
    ["text() only", textOnlyFetch],
  ])("%s: payments.create() creates one payment, sends once, and resolves", async (_label, fetch) => {
    const created = await viaMock(fetch).payments.create(
      { referenceId: "order-body-kind", amount },
      { idempotencyKey: "order-body-kind-key" },
    );
    expect(mock.service.payments.map((p) => p.id)).toEqual([created.id]);
    expect(posts()).toHaveLength(1);
  });

  it("a body that fails after the status arrived is not a ConnectionError: the payment exists", async () => {
    const cutOff: typeof fetch = async (input, init) => {
      const answer = await globalThis.fetch(input, init);
      await answer.arrayBuffer();
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"id":'));
          controller.error(new TypeError("terminated"));
        },
      });
      return new Response(body, { status: answer.status, headers: answer.headers });
    };
    const error = await failureOf(viaMock(cutOff).payments.create({ referenceId: "order-cut", amount }));
    expect(error).toBeInstanceOf(MerchantPaymentsError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(mock.service.payments).toHaveLength(1);
    // Every POST is keyed: its repeats are replayed under one key, never a second payment.
    expect(new Set(posts().map((r) => r.headers["idempotency-key"])).size).toBe(1);
  });
});

describe.each(WIRES)("a body cut off once the status arrived (%s)", (_wire, wire) => {
  it("is not reported as 'could not reach the service'", async () => {
    const url = await rawServer(
      Buffer.from(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n${STATUS}`,
      ),
    );
    const error = await failureOf(client(url, wire).payments.status("pay_cut"));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).not.toBeInstanceOf(ConnectionError);
  });
});

/** Every value reachable from an error (own properties, causes), bytes as text. */
function reachable(value: unknown, seen = new Set<unknown>()): string[] {
  if (value === null || typeof value !== "object" || seen.has(value)) return [String(value)];
  seen.add(value);
  if (value instanceof Uint8Array) return [Buffer.from(value).toString("latin1")];
  const out: string[] = [];
  for (const name of Object.getOwnPropertyNames(value)) {
    out.push(name, ...reachable((value as Record<string, unknown>)[name], seen));
  }
  return out;
}

describe.each(WIRES)("no raw bytes of an answer in an error's cause (%s)", (_wire, wire) => {
  it("a malformed answer echoing the Api-Key gives a ConnectionError whose causes hold no byte of it", async () => {
    const url = await rawServer(
      Buffer.from(`HTTP/1.1 200 OK\r\nX-Echo: ${KEY}\r\nBad\u0001Header: x\r\nContent-Length: 2\r\n\r\n{}`),
    );
    const error = await failureOf(client(url, wire).payments.status("pay_raw"));
    expect(error).toBeInstanceOf(ConnectionError);
    const everything = reachable(error).join("\n");
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain("rawPacket");
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(KEY);
  });
});
