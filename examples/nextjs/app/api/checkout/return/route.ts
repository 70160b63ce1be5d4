/**
 * `GET /api/checkout/return?order=…&payment_id=…`: where the checkout portal sends the buyer back (both the
 * success and the error URL point here). The redirect proves nothing, so the handler checks the `payment_id`
 * against the order's and asks the service for the status, server-side; only `outcome.fulfil` fulfils.
 *
 * A web-standard Next.js route handler (no `next` import needed). In an app, put this file at
 * `app/api/checkout/return/route.ts`.
 *
 * @module
 */
import { CheckoutReturnError, PollTimeoutError } from "merchant-payments";
import { fulfil, orders, paymentsClient } from "../../../../lib/shop";

/** Node.js runtime; and never cache this route: every return must be verified. */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const order = orders.get(new URL(request.url).searchParams.get("order") ?? "");
  if (!order?.paymentId) return page(404, "Unknown order.");
  try {
    const outcome = await paymentsClient().checkout.verifyReturn({
      url: request.url,
      expectedPaymentId: order.paymentId,
      wait: { timeoutMs: 20_000 }, // the buyer may return while the transaction confirms
    });
    if (outcome.fulfil) {
      if (order.status !== "paid") {
        order.status = "paid"; // first, so a reload cannot ship twice
        await fulfil(order);
      }
      return page(200, `Thank you! Order ${order.id} is paid.`);
    }
    switch (outcome.next) {
      case "show_error":
        order.status = "payment_failed";
        return page(402, "The payment failed. You can try again.");
      case "show_expiry":
        order.status = "payment_expired";
        return page(410, "The payment expired. Please start a new checkout.");
      case "show_cancelled":
        order.status = "cancelled";
        return page(409, "The payment was cancelled.");
      default:
        return page(202, "Your payment is still processing. We will e-mail you.");
    }
  } catch (error) {
    if (error instanceof CheckoutReturnError)
      return page(400, "This payment link is not valid for the order.");
    if (error instanceof PollTimeoutError) return page(202, "Your payment is still processing.");
    throw error;
  }
}

/** A real app would redirect to a page of its own (`Response.redirect(new URL("/orders/…", request.url), 303)`). */
function page(status: number, message: string): Response {
  return new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}
