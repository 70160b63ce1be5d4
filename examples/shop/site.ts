/**
 * A tiny merchant site on Node's http module: it takes an order, sends the buyer to the checkout portal, and on
 * the buyer's return verifies the payment server-side before fulfilling. Used by the demo (`npm run demo`).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CheckoutReturnError, type MerchantPaymentsClient, money } from "merchant-payments";

/** An order as the shop stores it. */
export interface Order {
  id: string;
  item: string;
  price: string;
  currency: string;
  paymentId?: string;
  state: "awaiting_payment" | "fulfilled" | "payment_failed" | "payment_expired" | "cancelled" | "pending";
}

/** The running shop. */
export interface Shop {
  url: string;
  orders: Map<string, Order>;
  close(): Promise<void>;
}

const CATALOGUE = { item: "Merchant Payments mug", price: "12.50", currency: "USD" };

/** Starts the shop on 127.0.0.1. `client` must have a default `merchantId`. */
export async function startShop(client: MerchantPaymentsClient, port = 0): Promise<Shop> {
  const orders = new Map<string, Order>();
  let baseUrl = "";
  const server: Server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      send(res, 500, page("Something went wrong", `<p>${escapeHtml(String(error))}</p>`));
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", baseUrl);
    if (req.method === "GET" && url.pathname === "/") return send(res, 200, home());
    if (req.method === "POST" && url.pathname === "/orders") return createOrder(res);
    const match = /^\/orders\/([^/]+)\/(success|error)$/.exec(url.pathname);
    const order = match ? orders.get(decodeURIComponent(match[1] ?? "")) : undefined;
    if (req.method === "GET" && order) return handleReturn(req, res, order);
    send(res, 404, page("Not found", "<p>No such page.</p>"));
  }

  async function createOrder(res: ServerResponse): Promise<void> {
    const order: Order = { id: `ord_${randomUUID().slice(0, 8)}`, ...CATALOGUE, state: "awaiting_payment" };
    orders.set(order.id, order);
    const checkout = await client.checkout.create({
      referenceId: order.id,
      amount: money(order.price, order.currency),
      successUrl: `${baseUrl}/orders/${order.id}/success`,
      errorUrl: `${baseUrl}/orders/${order.id}/error`,
    });
    // Store the payment with the order before sending the buyer away: the return is checked against it.
    order.paymentId = checkout.paymentId;
    res.writeHead(303, { Location: checkout.gatewayUrl }).end();
  }

  async function handleReturn(req: IncomingMessage, res: ServerResponse, order: Order): Promise<void> {
    if (!order.paymentId) return send(res, 409, page("No payment", "<p>This order has no payment.</p>"));
    try {
      // Which URL the buyer landed on (success or error) is ignored: only the service's status counts.
      const outcome = await client.checkout.verifyReturn({
        url: req.url ?? "/",
        expectedPaymentId: order.paymentId,
        wait: { timeoutMs: 30_000 },
      });
      order.state = ORDER_STATE[outcome.next];
      const title = outcome.fulfil ? "Thank you! Your order is on its way." : MESSAGES[outcome.next];
      send(
        res,
        200,
        page(title, `<p>Order <code>${order.id}</code>: ${order.state}.</p><p><a href="/">Back</a></p>`),
      );
    } catch (error) {
      if (!(error instanceof CheckoutReturnError)) throw error;
      send(res, 400, page("This return link is not valid", `<p>${escapeHtml(error.message)}</p>`));
    }
  }

  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    orders,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ORDER_STATE = {
  fulfil: "fulfilled",
  show_error: "payment_failed",
  show_expiry: "payment_expired",
  show_cancelled: "cancelled",
  keep_waiting: "pending",
} as const;

const MESSAGES = {
  fulfil: "Paid",
  show_error: "The payment failed. You can try again.",
  show_expiry: "The payment expired. Please start a new one.",
  show_cancelled: "The payment was cancelled.",
  keep_waiting: "We are still waiting for your payment to confirm.",
} as const;

function home(): string {
  return page(
    "Merchant Payments demo shop",
    `<p>${CATALOGUE.item}: ${CATALOGUE.price} ${CATALOGUE.currency}</p>
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
