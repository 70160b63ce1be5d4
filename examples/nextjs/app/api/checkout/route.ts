/**
 * `POST /api/checkout`: stores the order with its idempotency key and creates its checkout payment (`placeOrder`:
 * `client.checkout.create` under that key, in `examples/shared/checkout-flow.ts`), then 303-redirects the buyer
 * to the service's checkout portal. A form can
 * post here directly (`<form method="post" action="/api/checkout">`), or send JSON.
 *
 * A Next.js App Router route handler, type-checked against Next's own `NextRequest` and `NextResponse` (the
 * `next` package is a devDependency of this repository for that). In an app, put this file at
 * `app/api/checkout/route.ts`.
 *
 * @module
 */
import { InputValidationError, MerchantPaymentsError } from "merchant-payments";
import { type NextRequest, NextResponse } from "next/server";
import { INVALID_ORDER_INPUT, orderInput, placeOrder } from "../../../../shared/checkout-flow";
import { paymentsClient, publicUrl, shopOrders } from "../../../lib/shop";

/** Runs on the Node.js runtime: the API key stays on the server. */
export const runtime = "nodejs";

export async function POST(request: NextRequest): Promise<NextResponse> {
  const input = orderInput(await readBody(request));
  if (!input) return NextResponse.json({ error: INVALID_ORDER_INPUT }, { status: 400 });

  try {
    const { gatewayUrl } = await placeOrder(paymentsClient(), await shopOrders(), input, (order) => {
      // Both return URLs lead to the same handler, which verifies server-side; the service appends `payment_id`.
      const back = (landed: string) =>
        `${publicUrl()}/api/checkout/return?order=${encodeURIComponent(order.id)}&landed=${landed}`;
      return { successUrl: back("success"), errorUrl: back("error") };
    });
    return NextResponse.redirect(gatewayUrl, 303);
  } catch (error) {
    if (error instanceof InputValidationError) {
      return NextResponse.json({ error: error.message, field: error.field }, { status: 400 });
    }
    if (error instanceof MerchantPaymentsError) {
      console.error(error); // safe to log: never carries the API key
      return NextResponse.json({ error: "The payment service is unavailable." }, { status: 502 });
    }
    throw error;
  }
}

/** The fields of a form post, or the JSON body. */
async function readBody(request: NextRequest): Promise<unknown> {
  if ((request.headers.get("content-type") ?? "").includes("application/json")) {
    return request.json().catch(() => ({}));
  }
  const form = await request.formData().catch(() => new FormData());
  return { amount: form.get("amount"), currency: form.get("currency") };
}
