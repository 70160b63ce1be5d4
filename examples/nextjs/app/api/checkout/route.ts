/**
 * `POST /api/checkout`: creates the order and its checkout payment, then 303-redirects the buyer to the service's
 * checkout portal. A form can post here directly (`<form method="post" action="/api/checkout">`), or send JSON.
 *
 * Next.js App Router route handlers are plain web-standard functions, `(request: Request) => Promise<Response>`:
 * nothing here imports `next`, so this example type-checks (and is tested) without installing it. In an app, put
 * this file at `app/api/checkout/route.ts`.
 *
 * @module
 */
import { InputValidationError, MerchantPaymentsError, money } from "merchant-payments";
import { type Order, orders, paymentsClient, publicUrl } from "../../../lib/shop";

/** Runs on the Node.js runtime: the API key stays on the server. */
export const runtime = "nodejs";

export async function POST(request: Request): Promise<Response> {
  const input = await readOrderInput(request);
  if (!input) return Response.json({ error: "amount and currency are required strings" }, { status: 400 });

  const order: Order = {
    id: `ord_${crypto.randomUUID()}`,
    ...input,
    paymentId: null,
    status: "awaiting_payment",
  };
  // Both return URLs lead to the same handler, which verifies server-side; the service appends `payment_id`.
  const back = (landed: string) =>
    `${publicUrl()}/api/checkout/return?order=${encodeURIComponent(order.id)}&landed=${landed}`;
  try {
    const { paymentId, gatewayUrl } = await paymentsClient().checkout.create(
      {
        referenceId: order.id,
        amount: money(input.amount, input.currency),
        successUrl: back("success"),
        errorUrl: back("error"),
      },
      { idempotencyKey: `checkout-${order.id}` },
    );
    order.paymentId = paymentId;
    orders.set(order.id, order);
    return Response.redirect(gatewayUrl, 303);
  } catch (error) {
    if (error instanceof InputValidationError) {
      return Response.json({ error: error.message, field: error.field }, { status: 400 });
    }
    if (error instanceof MerchantPaymentsError) {
      console.error(error); // safe to log: never carries the API key
      return Response.json({ error: "The payment service is unavailable." }, { status: 502 });
    }
    throw error;
  }
}

async function readOrderInput(request: Request): Promise<{ amount: string; currency: string } | null> {
  const type = request.headers.get("content-type") ?? "";
  let amount: unknown;
  let currency: unknown;
  if (type.includes("application/json")) {
    const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
    ({ amount, currency } = body);
  } else {
    const form = await request.formData().catch(() => new FormData());
    amount = form.get("amount");
    currency = form.get("currency");
  }
  return typeof amount === "string" && typeof currency === "string" ? { amount, currency } : null;
}
