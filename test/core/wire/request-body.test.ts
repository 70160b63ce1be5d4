/**
 * Issue 27: a call's body goes to the wire beside ky's `Request`, not in it, with its `Content-Type` written by the
 * wire: what the service receives is the JSON text the call made, byte for byte, through either wire. And the body of
 * a `Request` that carries one (the bench's ky floor) is read so that ky can still cancel it. ky cancels the body of
 * the request it sent once the answer is in; after `request.text()` the stream stayed locked and that cancel
 * rejected (an error built, stack and all, on every POST). Both adapters: the user's `fetch` and the default
 * `node:http` one, over a server on 127.0.0.1. The text sent is the text `request.text()` gives.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testClient } from "../../helpers/clients.js";
import { createNodeFetch } from "../../../src/core/wire/node-fetch.js";
import { requestBodyText } from "../../../src/core/wire/request.js";
import { createUserFetch } from "../../../src/core/wire/user-fetch.js";

/** Multi-byte characters, one of them outside the BMP, and a leading BOM (which `text()` drops). */
const BODIES = ['{"memo":"Café ☕ 𝄞"}', '\uFEFF{"a":1}', ""];

let server: Server;
let url: string;
const received: string[] = [];
/** What the server saw of each request beside its body. */
const heads: { contentType: string | undefined; contentLength: string | undefined }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => {
      received.push(text);
      heads.push({ contentType: req.headers["content-type"], contentLength: req.headers["content-length"] });
      res.writeHead(201, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/payments`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (body: string) => new Request(url, { method: "POST", body });

/** After the adapter has sent `request`, its body can be cancelled, as ky does once the answer is in. */
async function expectCancellable(request: Request): Promise<void> {
  expect(request.body?.locked).toBe(false);
  await expect(request.body?.cancel()).resolves.toBeUndefined();
}

describe("the request body the wire reads", () => {
  it.each(BODIES)("is the text request.text() gives, and leaves the stream unlocked (%j)", async (body) => {
    const request = post(body);
    expect(await requestBodyText(request)).toBe(await post(body).text());
    await expectCancellable(request);
  });

  it("is undefined for a request without a body", async () => {
    expect(await requestBodyText(new Request(url))).toBeUndefined();
  });

  it("reaches a user's fetch whole, and ky can cancel the stream afterwards", async () => {
    const sent: unknown[] = [];
    const own = async (_url: RequestInfo | URL, init?: RequestInit) => {
      sent.push(init?.body);
      return new Response("{}", { status: 201 });
    };
    const fetch = createUserFetch(own as typeof globalThis.fetch, { maxResponseBytes: 1_048_576 });
    const request = post(BODIES[0] as string);
    expect((await fetch(request)).status).toBe(201);
    expect(sent).toEqual([BODIES[0]]);
    await expectCancellable(request);
  });

  it("reaches the server whole through the default node:http wire, and ky can cancel the stream afterwards", async () => {
    received.length = 0;
    const fetch = createNodeFetch({ maxSockets: 1, maxResponseBytes: 1_048_576 });
    const request = post(BODIES[0] as string);
    expect((await fetch(request)).status).toBe(201);
    expect(received).toEqual([BODIES[0]]);
    await expectCancellable(request);
  });
});

describe("a call's body, handed to the wire beside ky's Request", () => {
  /** Multi-byte characters, one outside the BMP: Content-Length counts bytes, not characters. */
  const body = { memo: "Café ☕ 𝄞", lines: [{ quantity: 2 }] };
  const text = JSON.stringify(body);
  /** The service's base URL: the server's origin (set once it listens). */
  const baseUrl = () => url.replace("/v1/payments", "");

  it.each([
    ["the default node:http wire", undefined],
    ["a user's fetch", (input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init)],
  ])(
    "reaches the service as the call's JSON, with its type and byte length, through %s",
    async (_, fetch) => {
      received.length = 0;
      heads.length = 0;
      const client = testClient({ baseUrl: baseUrl(), ...(fetch && { fetch }) });
      await client.request({ method: "POST", path: "/v1/payments", body });
      expect(received).toEqual([text]);
      expect(heads).toEqual([
        { contentType: "application/json", contentLength: String(Buffer.byteLength(text)) },
      ]);
    },
  );

  it("is sent again, whole, on every attempt of a retried call", async () => {
    received.length = 0;
    const sent: unknown[] = [];
    const flaky = async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(init?.body);
      return sent.length === 1 ? new Response("{}", { status: 503 }) : globalThis.fetch(input, init);
    };
    const client = testClient({ baseUrl: baseUrl(), fetch: flaky });
    await client.request({ method: "POST", path: "/v1/payments", body });
    expect(sent).toEqual([text, text]);
    expect(received).toEqual([text]);
  });
});
