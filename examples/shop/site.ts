/**
 * A tiny merchant site on Node's http module: it takes an order, sends the buyer to the checkout portal, and on
 * the buyer's return verifies the payment server-side before fulfilling, once. The flow is the shared one
 * (`examples/shared/checkout-flow.ts`), the orders are rows of a SQL database (`examples/shared/orders.ts`). Used
 * by the demo (`npm run demo`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { InputValidationError, type MerchantPaymentsClient, MerchantPaymentsError } from "merchant-payments";
import {
  type FulfilHandler,
  handleReturn,
  type Orders,
  placeOrder,
  type ReturnPage,
} from "../shared/checkout-flow.js";

/** Options of {@link startShop}. */
export interface ShopOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** How long a return waits for a payment still confirming. Default 10 s (the SDK's bound for a request handler). */
  returnWaitMs?: number;
  /** Called once per order, in the fulfilling transaction: ship here. */
  onFulfil?: FulfilHandler;
}

/** The running shop. */
export interface Shop {
  url: string;
  port: number;
  /** Stops the web server (the database is the caller's to close). */
  close(): Promise<void>;
}

const CATALOGUE = { item: "Merchant Payments mug", amount: "12.50", currency: "USD" };

/** Starts the shop on 127.0.0.1, keeping its orders in `orders`. `client` must have a default `merchantId`. */
export async function startShop(
  client: MerchantPaymentsClient,
  orders: Orders,
  options: ShopOptions = {},
): Promise<Shop> {
  let baseUrl = "";
  /**
   * The return being verified for each order and payment_id: a return that comes while one is in flight (a reload,
   * or a stranger hammering the URL) shares its answer, so one order never has more than one status call (or poll
   * loop, under the merchant's key) running at a time.
   */
  const verifying = new Map<string, Promise<ReturnPage>>();
  const server: Server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => sendError(res, error));
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = URL.parse(req.url ?? "/", baseUrl);
    if (!url) return send(res, 400, page("Bad request", "<p>That is not a valid address.</p>"));
    if (req.method === "GET" && url.pathname === "/") return send(res, 200, home());
    if (req.method === "POST" && url.pathname === "/orders") return createOrder(res);
    const match = /^\/orders\/([^/]+)\/(success|error)$/.exec(url.pathname);
    if (req.method === "GET" && match) {
      const orderId = decoded(match[1] ?? "");
      if (orderId === undefined)
        return send(res, 400, page("Bad request", "<p>That is not a valid order.</p>"));
      return onReturn(req, res, orderId, url.searchParams.getAll("payment_id").join("\n"));
    }
    send(res, 404, page("Not found", "<p>No such page.</p>"));
  }

  async function createOrder(res: ServerResponse): Promise<void> {
    const { amount, currency } = CATALOGUE;
    const { gatewayUrl } = await placeOrder(client, orders, { amount, currency }, (order) => ({
      successUrl: `${baseUrl}/orders/${order.id}/success`,
      errorUrl: `${baseUrl}/orders/${order.id}/error`,
    }));
    res.writeHead(303, { Location: gatewayUrl }).end();
  }

  async function onReturn(
    req: IncomingMessage,
    res: ServerResponse,
    orderId: string,
    paymentIds: string,
  ): Promise<void> {
    const order = await orders.get(orderId);
    if (!order) return send(res, 404, page("Unknown order", "<p>No such order.</p>"));
    // Which URL the buyer landed on (success or error) is ignored: only the service's status counts.
    const key = `${orderId}\n${paymentIds}`;
    let verification = verifying.get(key);
    if (!verification) {
      verification = handleReturn(client, orders, orderId, req.url ?? "/", {
        waitMs: options.returnWaitMs ?? 10_000,
        onFulfil: options.onFulfil,
      }).finally(() => verifying.delete(key));
      verifying.set(key, verification);
    }
    const { status, message } = await verification;
    const state = (await orders.get(orderId))?.state ?? "unknown";
    const body = `<p>Order <code>${escapeHtml(orderId)}</code>: ${state}.</p><p><a href="/">Back</a></p>`;
    send(res, status, page(message, body));
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  return {
    url: baseUrl,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A percent-decoded path segment, or undefined when it is malformed (`%E0%A4%A`): a 400, not a URIError. */
function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function sendError(res: ServerResponse, error: unknown): void {
  if (error instanceof InputValidationError) {
    send(res, 400, page("Invalid order", escapeHtml(error.message)));
    return;
  }
  console.error(error); // safe: SDK errors never carry the API key
  const unavailable = error instanceof MerchantPaymentsError;
  send(
    res,
    unavailable ? 502 : 500,
    page(unavailable ? "Payments are unavailable" : "Something went wrong", ""),
  );
}

function home(): string {
  return page(
    "Merchant Payments demo shop",
    `<p>${CATALOGUE.item}: ${CATALOGUE.amount} ${CATALOGUE.currency}</p>
     <form method="post" action="/orders"><button id="buy" type="submit">Buy with crypto</button></form>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8" }).end(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
