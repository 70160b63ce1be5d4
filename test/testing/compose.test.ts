/**
 * The mock as a service in someone else's CI or Docker Compose: links a browser on the host can open, a Host check
 * that parses the Host, refusals that say what to do, redirects over plain http in test mode, accounts that cannot
 * take each other over, seeds that cannot break a page, and a request log bounded by what it holds.
 */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  createMockService,
  type MockServer,
  type MockServiceOptions,
  startMockServer,
} from "../../src/testing/index.js";

const running: MockServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options: Parameters<typeof startMockServer>[0] = {}): Promise<MockServer> {
  const server = await startMockServer({ port: 0, ...options });
  running.push(server);
  return server;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with a `Host` of our choosing (fetch does not let a caller set it), to 127.0.0.1 only. */
function send(
  server: MockServer,
  host: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<RawAnswer> {
  const { port } = server;
  const s = server.service;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        setHost: false,
        headers: {
          host,
          "api-key": s.keys.test,
          "merchant-id": s.merchantId,
          ...(payload
            ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end(payload);
  });
}

const CHECKOUT = { referenceId: "o-1", amount: { unit: "iso4217/USD", value: "100" } };

describe("links in answers: usable by whoever asked", () => {
  it("builds gatewayUrl from the request's allowed Host: a container says mock, a browser on the host localhost", async () => {
    const server = await start({ allowedHosts: ["mock"] });
    const { port } = server;
    const inCompose = await send(server, `mock:${port}`, "POST", "/v1/merchant/payment", CHECKOUT);
    expect(inCompose.status).toBe(201);
    expect(JSON.parse(inCompose.body).gatewayUrl).toMatch(new RegExp(`^http://mock:${port}/portal/pay_`));
    const onHost = await send(server, `localhost:${port}`, "POST", "/v1/merchant/payment", CHECKOUT);
    expect(JSON.parse(onHost.body).gatewayUrl).toMatch(new RegExp(`^http://localhost:${port}/portal/pay_`));
    const direct = await send(server, `127.0.0.1:${port}`, "POST", "/v1/payments", CHECKOUT);
    expect(JSON.parse(direct.body).paymentLink).toMatch(new RegExp(`^http://127.0.0.1:${port}/portal/pay_`));
  });

  it("uses publicUrl for every link when given, whatever the Host", async () => {
    const server = await start({ allowedHosts: ["mock"], publicUrl: "http://localhost:4999/" });
    expect(server.url).toBe("http://localhost:4999");
    const answer = await send(server, `mock:${server.port}`, "POST", "/v1/merchant/payment", CHECKOUT);
    expect(JSON.parse(answer.body).gatewayUrl).toMatch(/^http:\/\/localhost:4999\/portal\/pay_/);
  });

  it("refuses a publicUrl that is not an http(s) address", async () => {
    await expect(startMockServer({ publicUrl: "ftp://x" })).rejects.toThrow(/publicUrl/);
    await expect(startMockServer({ publicUrl: "not a url" })).rejects.toThrow(/publicUrl/);
  });
});

describe("the Host check", () => {
  it("parses Host as a host: 127.0.0.1:80@attacker.example and other disguises are refused", async () => {
    const server = await start();
    for (const host of [
      "127.0.0.1:80@attacker.example",
      `localhost:${server.port}@attacker.example`,
      "127.0.0.1.attacker.example",
      "localhost/evil",
      "attacker.example",
    ]) {
      const answer = await send(server, host, "GET", "/v1/merchants");
      expect(answer.status, host).toBe(421);
    }
    expect((await send(server, `127.0.0.1:${server.port}`, "GET", "/v1/merchants")).status).toBe(200);
  });

  it("says how to allow a name: the 421 names --allowed-host, and carries a Request-Id", async () => {
    const server = await start();
    const answer = await send(server, `mock:${server.port}`, "GET", "/v1/merchants");
    expect(answer.status).toBe(421);
    expect(JSON.parse(answer.body).message).toContain("--allowed-host");
    expect(answer.headers["request-id"]).toMatch(/^req_/);
  });
});

describe("Request-Id on every answer", () => {
  it("on 404, 405, control endpoints, portal pages and the favicon, besides /v1 answers", async () => {
    const mock = createMockService();
    const checkout = await mock.fetch(`${mock.baseUrl}/v1/merchant/payment`, {
      method: "POST",
      headers: {
        "Api-Key": mock.keys.test,
        "Merchant-Id": mock.merchantId,
        "Content-Type": "application/json",
      },
      body: JSON.stringify(CHECKOUT),
    });
    const { gatewayUrl } = (await checkout.json()) as { gatewayUrl: string };
    const answers = {
      created: checkout,
      unknownRoute: await mock.fetch(`${mock.baseUrl}/v1/nothing-here`),
      wrongMethod: await mock.fetch(`${mock.baseUrl}/v1/merchants`, { method: "DELETE" }),
      control: await mock.fetch(`${mock.baseUrl}/__mock/state`),
      unknownControl: await mock.fetch(`${mock.baseUrl}/__mock/nothing`),
      portal: await mock.fetch(gatewayUrl),
      portalNotFound: await mock.fetch(`${mock.baseUrl}/portal/pay_unknown`),
      favicon: await mock.fetch(`${mock.baseUrl}/favicon.ico`),
    };
    expect(answers.unknownRoute.status).toBe(404);
    expect(answers.wrongMethod.status).toBe(405);
    const ids = Object.values(answers).map((res) => res.headers.get("request-id"));
    for (const [name, res] of Object.entries(answers)) {
      expect(res.headers.get("request-id"), name).toMatch(/^req_/);
      expect(res.headers.get("mock-version"), name).toBe("2026-02-19.preview");
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});

async function checkoutWith(mock: ReturnType<typeof createMockService>, merchantId: string, key: string) {
  const res = await mock.fetch(`${mock.baseUrl}/v1/merchant/payment`, {
    method: "POST",
    headers: { "Api-Key": key, "Merchant-Id": merchantId, "Content-Type": "application/json" },
    body: JSON.stringify({
      ...CHECKOUT,
      checkout: { successUrl: "http://app:3000/done", errorUrl: "http://app:3000/failed" },
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { paymentId: string }).paymentId;
}

describe("plain-http return URLs under allowInsecureHttp (a redirect round-trip in Compose without TLS)", () => {
  it("a test-mode payment keeps http://app:3000 redirects; live mode never; off by default", async () => {
    const mock = createMockService({ allowInsecureHttp: true });
    const test = await checkoutWith(mock, mock.merchantId, mock.keys.test);
    expect(mock.simulateBuyer(test, { outcome: "success" })).toBe(`http://app:3000/done?payment_id=${test}`);
    const live = await checkoutWith(mock, mock.liveMerchantId!, mock.keys.live);
    expect(mock.simulateBuyer(live, { outcome: "success" })).toBeNull();
    const strict = createMockService();
    const off = await checkoutWith(strict, strict.merchantId, strict.keys.test);
    expect(strict.simulateBuyer(off, { outcome: "failure" })).toBeNull();
  });

  it("over the server too (startMockServer's allowInsecureHttp, CLI --allow-insecure-http)", async () => {
    const server = await start({ allowInsecureHttp: true });
    const answer = await send(server, `127.0.0.1:${server.port}`, "POST", "/v1/merchant/payment", {
      ...CHECKOUT,
      checkout: { successUrl: "http://app:3000/done", errorUrl: "http://app:3000/failed" },
    });
    const { paymentId } = JSON.parse(answer.body) as { paymentId: string };
    expect(server.service.simulateBuyer(paymentId, { outcome: "failure" })).toBe(
      `http://app:3000/failed?payment_id=${paymentId}`,
    );
  });
});

async function control(mock: ReturnType<typeof createMockService>, path: string, body: unknown) {
  return mock.fetch(`${mock.baseUrl}/__mock${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("accounts: no takeover", () => {
  it("refuses POST /__mock/accounts reusing another account's appId; the owner keeps it", async () => {
    const mock = createMockService();
    const owner = mock.keys.app.test;
    const res = await control(mock, "/accounts", {
      keys: { app: { test: { appId: owner.appId, clientId: "client_attacker" } } },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(owner.appId);
    expect(mock.accounts).toHaveLength(1);
    const merchants = await mock.fetch(`${mock.baseUrl}/v1/merchants`, {
      headers: { "App-Id": owner.appId, "Client-Id": owner.clientId },
    });
    expect(merchants.status).toBe(200);
    const attacker = await mock.fetch(`${mock.baseUrl}/v1/merchants`, {
      headers: { "App-Id": owner.appId, "Client-Id": "client_attacker" },
    });
    expect(attacker.status).toBe(401);
  });

  it("refuses createAccount() with the live appId of another account too", () => {
    const mock = createMockService();
    const { live } = mock.keys.app;
    expect(() =>
      mock.createAccount({ keys: { app: { live: { appId: live.appId, clientId: "x" } } } }),
    ).toThrow(/already belongs/);
  });

  it("creating an account is all or nothing: a refused seed leaves no key, and the same seed fixed is taken", async () => {
    const mock = createMockService();
    const prefix = mock.keys.test.slice(0, mock.keys.test.indexOf("_test_"));
    const keys = { test: `${prefix}_test_all_or_nothing`, live: `${prefix}_all_or_nothing` };
    const merchant = { id: "mrch_all_or_nothing", name: "Shop" };
    // Each of these merchants is refused only once the account would be stored.
    for (const bad of [
      { ...merchant, mode: "sandbox" },
      { ...merchant, crypto: [{ asset: "not-an-asset", destination: "x" }] },
      [merchant, merchant],
      { ...merchant, id: mock.merchantId },
    ]) {
      const merchants = Array.isArray(bad) ? bad : [bad];
      const res = await control(mock, "/accounts", { id: "acct_all_or_nothing", keys, merchants });
      expect(res.status).toBe(400);
      expect(mock.accounts).toHaveLength(1);
      expect(mock.merchants.map((m) => m.id)).not.toContain(merchant.id);
      const withKey = await mock.fetch(`${mock.baseUrl}/v1/merchants`, { headers: { "Api-Key": keys.test } });
      expect(withKey.status).toBe(401);
    }
    const retry = await control(mock, "/accounts", {
      id: "acct_all_or_nothing",
      keys,
      merchants: [merchant],
    });
    expect(retry.status).toBe(201);
    const listed = await mock.fetch(`${mock.baseUrl}/v1/merchants`, { headers: { "Api-Key": keys.test } });
    expect(listed.status).toBe(200);
  });
});

describe("names: a seed cannot break a page", () => {
  const seedNamed = (name: unknown): MockServiceOptions => ({
    seed: { accounts: [{ merchants: [{ name: name as string }] }] },
  });

  it("a seeded merchant named {} (not a string) is refused at once, naming where it is", () => {
    expect(() => createMockService(seedNamed({}))).toThrow(/accounts\.0.*name must be a non-empty string/);
    expect(() => createMockService(seedNamed(""))).toThrow(/name/);
  });

  it("POST /__mock/accounts with such a name is a 400, and every page still renders", async () => {
    const mock = createMockService();
    const res = await control(mock, "/accounts", { merchants: [{ name: {} }] });
    expect(res.status).toBe(400);
    expect(mock.accounts).toHaveLength(1); // nothing half-made
    const named = createMockService(seedNamed('</title><script>alert("x")</script>{}$&'));
    const id = await checkoutWith(named, named.merchantId, named.keys.test);
    const page = await named.fetch(`${named.baseUrl}/portal/${id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain('<script>alert("x")');
    expect(html).toContain("&lt;/title&gt;&lt;script&gt;");
  });
});

describe("the request log is bounded by the memory it holds", () => {
  it("bodies of many small values count for what they hold, not for their JSON length", async () => {
    const budget = 256 * 1024;
    const mock = createMockService({ requestLogMaxBytes: budget });
    // 1,333 empty objects: 4 KB of JSON, many times that once parsed and kept as objects.
    const body = `[${Array.from({ length: 1333 }, () => "{}").join(",")}]`;
    for (let i = 0; i < 60; i++) {
      await mock.fetch(`${mock.baseUrl}/v1/payments`, {
        method: "POST",
        headers: {
          "Api-Key": mock.keys.test,
          "Merchant-Id": mock.merchantId,
          "Content-Type": "application/json",
        },
        body,
      });
    }
    const log = mock.requests;
    expect(log.length).toBeGreaterThan(0);
    // Held as text: two bytes per character in a JS string, at least.
    expect(log.length * 2 * body.length).toBeLessThanOrEqual(budget);
    expect(log.at(-1)?.body).toEqual(JSON.parse(body));
  });
});
