/**
 * Issues #11 and #12.3, the wire as a merchant meets it, over raw `node:http` servers on 127.0.0.1: answers bounded
 * after decompression while they stream (a compression bomb, an endless chunked body), whichever fetch reads them;
 * a per-origin connection limit under a burst of polls; encodings decoded as fetch decodes them; redirects never
 * followed; a deadline that covers the body and drops the connection.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  APIError,
  type ClientOptions,
  type MerchantPaymentsClient,
  ResponseTooLargeError,
  TimeoutError,
} from "../../../src/index.js";
import { testClient } from "../../helpers/clients.js";
import { MERCHANT } from "../../helpers/fixtures.js";
import { failureOf } from "../../helpers/outcomes.js";

/** What a test server saw: connections opened and closed, and bytes it wrote. */
interface Seen {
  connections: number;
  closedConnections: number;
  requests: number;
}

interface TestServer {
  url: string;
  seen: Seen;
  close(): Promise<void>;
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const seen: Seen = { connections: 0, closedConnections: 0, requests: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    seen.requests++;
    req.resume();
    req.on("end", () => answer(req, res));
  });
  server.on("connection", (socket: Socket) => {
    seen.connections++;
    sockets.add(socket);
    socket.on("close", () => {
      seen.closedConnections++;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const test: TestServer = {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  servers.push(test);
  return test;
}

function client(url: string, options: ClientOptions = {}): MerchantPaymentsClient {
  return testClient({
    apiKey: "mock_test_sk_WireTests0123456789",
    baseUrl: url,
    merchantId: "mrch_wire",
    maxRetries: 0,
    ...options,
  });
}

/** Watches one answer: `finished` resolves when its connection is gone, with whether the server wrote it all. */
function watchAnswer(): { finished: Promise<boolean>; watch(res: ServerResponse): void } {
  let watch: (res: ServerResponse) => void = () => {};
  const finished = new Promise<boolean>((resolve) => {
    watch = (res) => res.on("close", () => resolve(res.writableEnded));
  });
  return { finished, watch: (res) => watch(res) };
}

const STATUS = { status: "processing", isFinal: false, pollInMs: 1000 };
const FETCHES: Array<[string, ClientOptions]> = [
  ["the default wire", {}],
  ["a user's fetch (the global one)", { fetch: (input, init) => globalThis.fetch(input, init) }],
];

describe("bounded reading: counted after decompression, while streaming (#12.3)", () => {
  const LIMIT = 1_048_576;
  let bomb: Buffer;
  beforeAll(() => {
    // 64 MiB of zeros, about 64 KB compressed.
    bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
  });

  it.each(FETCHES)(
    "a gzip bomb through %s is a ResponseTooLargeError naming the limit, and the connection is dropped mid-answer",
    async (_label, options) => {
      const answer = watchAnswer();
      const server = await serve((_req, res) => {
        answer.watch(res);
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        // The compressed bomb, then the answer stays open: a client that reads to the end before counting would
        // wait for the deadline instead of failing on size.
        res.write(bomb);
      });
      const error = await failureOf(
        client(server.url, { ...options, timeoutMs: 60_000 }).payments.status("pay_bomb"),
      );
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error).toMatchObject({ limitBytes: LIMIT, method: "GET", path: "/v1/payments/pay_bomb/status" });
      expect(await answer.finished).toBe(false);
      expect(server.seen.requests).toBe(1);
    },
  );

  it.each(FETCHES)(
    "an endless chunked body through %s stops near the limit: the server never gets to write it all",
    async (_label, options) => {
      const TOTAL = 64 * 1024 * 1024;
      const CHUNK = Buffer.alloc(64 * 1024, "x");
      let written = 0;
      const answer = watchAnswer();
      const server = await serve((_req, res) => {
        answer.watch(res);
        res.writeHead(200, { "content-type": "application/json" }); // no length: chunked
        const writeMore = () => {
          // Writes only as fast as the client reads (backpressure), up to 64 MiB.
          while (written < TOTAL && !res.destroyed) {
            written += CHUNK.length;
            if (!res.write(CHUNK)) return;
          }
          if (written >= TOTAL) res.end();
        };
        res.on("drain", writeMore);
        writeMore();
      });
      const error = await failureOf(
        client(server.url, { ...options, maxResponseBytes: 65_536, timeoutMs: 60_000 }).payments.status(
          "pay_1",
        ),
      );
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error).toMatchObject({ limitBytes: 65_536 });
      expect(await answer.finished).toBe(false);
      // Socket buffers hold a few MiB at most: the client dropped the connection long before 64 MiB.
      expect(written).toBeLessThan(TOTAL);
      expect(server.seen.requests).toBe(1);
    },
  );

  it("a body exactly at the limit is read", async () => {
    const body = JSON.stringify(STATUS);
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    });
    const status = await client(server.url, { maxResponseBytes: Buffer.byteLength(body) }).payments.status(
      "pay_1",
    );
    expect(status).toMatchObject(STATUS);
  });
});

describe("the default wire speaks HTTP as fetch does (#11)", () => {
  it.each([
    ["gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync],
  ] as const)("decodes a %s answer", async (encoding, compress) => {
    const server = await serve((req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": encoding });
      res.end(compress(Buffer.from(JSON.stringify({ ...STATUS, asked: req.headers["accept-encoding"] }))));
    });
    const status = await client(server.url).payments.status("pay_1");
    expect(status).toMatchObject(STATUS);
  });

  it("never follows a redirect: the 3xx comes back as an error, and the key never reaches the other host", async () => {
    const elsewhere = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(STATUS));
    });
    const server = await serve((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.url}/v1/payments/pay_1/status` });
      res.end();
    });
    const error = await failureOf(client(server.url).payments.status("pay_1"));
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 302 });
    expect(elsewhere.seen.requests).toBe(0);
  });
});

describe("the attempt's deadline and the answer as it arrived, whichever fetch (#11)", () => {
  it.each(FETCHES)(
    "a body that stalls after the headers through %s ends in a TimeoutError, and the connection is dropped",
    async (_label, options) => {
      const answer = watchAnswer();
      const server = await serve((_req, res) => {
        answer.watch(res);
        res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
        res.write('{"status":"processing",');
      });
      const error = await failureOf(
        client(server.url, { ...options, timeoutMs: 100 }).payments.status("pay_1"),
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect(await answer.finished).toBe(false);
      expect(server.seen.requests).toBe(1);
    },
  );

  it.each(FETCHES)(
    "an answer through %s keeps the headers that arrived: none is invented",
    async (_label, options) => {
      const server = await serve((_req, res) => {
        // No content-type: the SDK reads JSON whatever the type says, and must not report one the service never sent.
        res.writeHead(200, { "request-id": "req_wire_1" });
        res.end(JSON.stringify(STATUS));
      });
      const { data, response } = await client(server.url, options).payments.status("pay_1").withResponse();
      expect(data).toMatchObject(STATUS);
      expect(response.requestId).toBe("req_wire_1");
      expect(response.headers.has("content-type")).toBe(false);
    },
  );
});

describe("no connection storm (#11)", () => {
  it("200 concurrent status calls open at most maxSockets connections, and all resolve", async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    const server = await serve((_req, res) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      // Answer on the next turn, so requests pile up while the first ones are in flight.
      setImmediate(() => {
        inFlight--;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(STATUS));
      });
    });
    const sdk = client(server.url, { maxSockets: 4 });
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => sdk.payments.status(`pay_${i}`)));
    expect(results).toHaveLength(200);
    expect(server.seen.requests).toBe(200);
    expect(server.seen.connections).toBeLessThanOrEqual(4);
    expect(mostInFlight).toBeLessThanOrEqual(4);
  });

  it("shares maxSockets between merchant-scoped calls and the others", async () => {
    const server = await serve((req, res) => {
      const merchant = req.url?.startsWith("/v1/merchants/");
      setImmediate(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(merchant ? { merchant: MERCHANT } : STATUS));
      });
    });
    const sdk = client(server.url, { maxSockets: 2 });
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0 ? sdk.payments.status(`pay_${i}`) : sdk.merchants.retrieve(`mrch_${i}`),
    );
    expect(await Promise.all(calls)).toHaveLength(40);
    expect(server.seen.requests).toBe(40);
    expect(server.seen.connections).toBeLessThanOrEqual(2);
  });
});
