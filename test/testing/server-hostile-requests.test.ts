/**
 * The mock survives what a test, a browser or a hostile page can send it: every attack of issue #13 is one case
 * here, against a real server on 127.0.0.1 (the process must stay up, the next request must be answered).
 */
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { parseHost } from "../../src/testing/host.js";
import { createMockService, type MockServer, startMockServer } from "../../src/testing/index.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startMockServer>[0] = {}): Promise<MockServer> {
  server = await startMockServer(options);
  return server;
}

/** One raw request: any target and any Host header, as a browser page or curl could send them. */
function raw(
  url: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname,
        port,
        path,
        method: init.method ?? "GET",
        headers: init.headers,
        setHost: !init.headers?.host,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

/** A request written byte for byte (two Host lines, say, which node:http's client will not send); the answer's text. */
function rawLines(url: string, headerLines: string[]): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET /__mock HTTP/1.1\r\n${headerLines.join("\r\n")}\r\nConnection: close\r\n\r\n`);
    });
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

const control = (s: MockServer, path: string, body: unknown, type = "application/json") =>
  fetch(`${s.url}${s.service.controlPrefix}${path}`, {
    method: "POST",
    headers: { "Content-Type": type },
    body: JSON.stringify(body),
  });

async function stillAnswers(s: MockServer): Promise<void> {
  const res = await fetch(`${s.url}/v1/merchants`, { headers: { "Api-Key": s.service.keys.test } });
  expect(res.status).toBe(200);
}

describe("mock server: requests that used to end the process", () => {
  it("answers a target that is not a URL (//[) with 400 and keeps serving", async () => {
    const s = await start();
    const res = await raw(s.url, "//[");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).code).toBe("invalid_request_target");
    await stillAnswers(s);
  });

  it.each([
    [{ type: "rateLimit", retryAfterSeconds: "1\r\nSet-Cookie: a=b" }, "retryAfterSeconds"],
    [{ type: "rateLimit", retryAfterSeconds: 1.5 }, "retryAfterSeconds"],
    [{ type: "serverError", status: 1000 }, "status"],
    [{ type: "serverError", status: "abc" }, "status"],
    [{ type: "html", status: 42 }, "status"],
    [{ type: "malformedJson", status: 600 }, "status"],
    [{ type: "latency", latencyMs: Number.MAX_VALUE }, "latencyMs"],
    [{ type: "drop", method: "GET\r\nX: y" }, "method"],
    [{ type: "drop", times: -1 }, "times"],
    [{ type: "drop", after: "yes" }, "after"],
    [{ type: "drop", pathRegex: "^/(a+)+$" }, "pathRegex"],
    [{ type: "nope" }, "type"],
  ])(
    "refuses the fault spec %j as a whole (400 naming %s), and the next request is answered",
    async (spec, field) => {
      const s = await start();
      const res = await control(s, "/faults", spec);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(field);
      expect(() => s.service.injectFault(spec as never)).toThrow(TypeError);
      expect(s.service.state.faults).toEqual([]);
      await stillAnswers(s);
    },
  );

  it("matches fault paths with * without a regular expression: a pathological path is cheap and correct", async () => {
    const s = await start();
    s.service.injectFault({ type: "serverError", path: "/v1/*/settlements", times: 1 });
    const key = { "Api-Key": s.service.keys.test };
    const other = await fetch(`${s.url}/v1/merchants/${"a".repeat(5000)}!`, { headers: key });
    expect(other.status).toBe(404);
    const hit = await fetch(`${s.url}/v1/merchants/${s.service.merchantId}/settlements`, { headers: key });
    expect(hit.status).toBe(500);
  });

  it("refuses a time advance past year 9999 (400) and keeps answering dates", async () => {
    const s = await start();
    const res = await control(s, "/time/advance", { ms: 1e308 });
    expect(res.status).toBe(400);
    expect(() => s.service.advanceTime(Number.POSITIVE_INFINITY)).toThrow(/ms must be/);
    await stillAnswers(s);
  });
});

describe("mock server: cross-site and rebinding pages", () => {
  it("refuses a Host it was not started for (DNS rebinding): 421, keys not shown", async () => {
    const s = await start();
    const port = new URL(s.url).port;
    const res = await raw(s.url, "/__mock", { headers: { host: `rebind.attacker.example:${port}` } });
    expect(res.status).toBe(421);
    expect(res.body).not.toContain(s.service.keys.test);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await raw(s.url, "/__mock", { headers: { host } })).status).toBe(200);
    }
  });

  it("refuses a Host that only URL parsing turns into an allowed name (a trailing dot, another IPv4 spelling)", async () => {
    const s = await start({ allowedHosts: ["mock"] });
    const port = new URL(s.url).port;
    for (const name of [
      "127.0.0.1.",
      "localhost.",
      "mock.",
      "127.1",
      "0x7f.0.0.1",
      "2130706433",
      "[0:0::1]",
    ]) {
      const res = await raw(s.url, "/__mock", { headers: { host: `${name}:${port}` } });
      expect(res.status, name).toBe(421);
      expect(res.body).not.toContain(s.service.keys.test);
    }
    for (const name of ["127.0.0.1", "LocalHost", "[::1]", "mock"]) {
      expect((await raw(s.url, "/__mock", { headers: { host: `${name}:${port}` } })).status, name).toBe(200);
    }
  });

  it("refuses a request with two Host lines, whichever comes first", async () => {
    const s = await start();
    const port = new URL(s.url).port;
    for (const hosts of [
      [`localhost:${port}`, "rebind.attacker.example"],
      [`localhost:${port}`, `localhost:${port}`],
    ]) {
      const answer = await rawLines(
        s.url,
        hosts.map((host) => `Host: ${host}`),
      );
      expect(answer, hosts.join(" + ")).toMatch(/^HTTP\/1\.1 4\d\d /);
      expect(answer).not.toContain(s.service.keys.test);
    }
  });

  it("refuses a Host with white space or a control character in it", async () => {
    const s = await start();
    const port = new URL(s.url).port;
    for (const host of [
      ` localhost:${port}`,
      `localhost :${port}`,
      `local\u00a0host:${port}`,
      `\tlocalhost`,
    ]) {
      expect(parseHost(host), JSON.stringify(host)).toBeNull();
    }
    // Over HTTP/1.1 the white space around a field value is not part of it (RFC 9110, 5.5): Node's parser removes it.
    expect((await raw(s.url, "/__mock", { headers: { host: `  localhost:${port}` } })).status).toBe(200);
  });

  it("accepts a name given in allowedHosts (a Compose service name)", async () => {
    const s = await start({ allowedHosts: ["mock"] });
    const res = await raw(s.url, "/__mock", { headers: { host: `mock:${new URL(s.url).port}` } });
    expect(res.status).toBe(200);
  });

  it("refuses a cross-site text/plain POST to the control plane (415) and changes nothing", async () => {
    const s = await start();
    const payment = await fetch(`${s.url}/v1/payments`, {
      method: "POST",
      headers: {
        "Api-Key": s.service.keys.test,
        "Merchant-Id": s.service.merchantId,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ referenceId: "o-1", amount: { unit: "iso4217/USD", value: "100" } }),
    });
    const { id } = (await payment.json()) as { id: string };
    const attack = await control(s, `/payments/${id}/complete`, {}, "text/plain");
    expect(attack.status).toBe(415);
    expect((await control(s, "/faults", { type: "drop" }, "text/plain")).status).toBe(415);
    expect(s.service.getPayment(id).status).toBe("requires_action");
    expect(s.service.state.faults).toEqual([]);
  });

  it("refuses to listen beyond loopback unless told to (allowRemote)", async () => {
    await expect(startMockServer({ host: "0.0.0.0" })).rejects.toThrow(/allowRemote/);
  });
});

describe("mock: the request log and reset()", () => {
  it("logs only routed requests, cuts long bodies, and stays within its byte budget", async () => {
    const s = await start({ requestLogMaxBytes: 64 * 1024 });
    const big = JSON.stringify({
      referenceId: "x".repeat(200_000),
      amount: { unit: "iso4217/USD", value: "1" },
    });
    for (let i = 0; i < 5; i++) {
      await fetch(`${s.url}/nowhere`, {
        method: "POST",
        body: big,
        headers: { "Content-Type": "application/json" },
      });
    }
    expect(s.service.requests).toEqual([]);
    const headers = { "Api-Key": s.service.keys.test, "Merchant-Id": s.service.merchantId };
    for (let i = 0; i < 40; i++) {
      await fetch(`${s.url}/v1/payments`, {
        method: "POST",
        body: big,
        headers: { ...headers, "Content-Type": "application/json" },
      });
    }
    const log = s.service.requests;
    expect(log.length).toBeGreaterThan(0);
    expect(log.length).toBeLessThan(40);
    expect(JSON.stringify(log).length).toBeLessThanOrEqual(64 * 1024);
    expect(log.at(-1)?.bodyTruncated).toBe(true);
    expect(String(log.at(-1)?.body).length).toBe(4096);
  });

  it("discards a request still in flight when reset() is called: nothing applied, connection dropped", async () => {
    const mock = createMockService();
    // A minute: the request is surely still held when reset() comes, and reset() ends the wait at once.
    mock.injectFault({ type: "latency", latencyMs: 60_000, path: "/v1/merchants" });
    const pending = mock.fetch(`${mock.baseUrl}/v1/merchants`, {
      method: "POST",
      headers: {
        "Api-Key": mock.keys.test,
        "Idempotency-Key": crypto.randomUUID(),
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ merchantName: "Late", merchantEmail: "late@shop.example" }),
    });
    const before = mock.merchants.length;
    for (let i = 0; i < 1000 && mock.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 1));
    expect(mock.requests).toHaveLength(1); // in flight: routed and held by the fault
    mock.reset();
    await expect(pending).rejects.toThrow(TypeError);
    expect(mock.merchants.length).toBe(before);
    expect(mock.merchants.some((m) => m.name === "Late")).toBe(false);
  });
});
