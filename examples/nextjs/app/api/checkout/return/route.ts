/**
 * `GET /api/checkout/return?order=…&payment_id=…`: where the checkout portal sends the buyer back (both the
 * success and the error URL point here). The redirect proves nothing, so the handler checks the `payment_id`
 * against the order's and asks the service for the status, server-side (`handleReturn`:
 * `client.checkout.verifyReturn`, in `examples/shared/checkout-flow.ts`); only `outcome.fulfil` fulfils, once
 * (`orders.fulfil`: a conditional update in a transaction).
 *
 * A Next.js App Router route handler (`NextRequest` in, `NextResponse` out). In an app, put this file at
 * `app/api/checkout/return/route.ts`.
 *
 * @module
 */
import { type NextRequest, NextResponse } from "next/server";
import { handleReturn } from "../../../../../shared/checkout-flow";
import { fulfil, paymentsClient, shopOrders } from "../../../../lib/shop";

/** Node.js runtime; and never cache this route: every return must be verified. */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: NextRequest): Promise<NextResponse> {
  const orderId = request.nextUrl.searchParams.get("order") ?? undefined;
  // Waits up to 10 s for a final status (the buyer may return while the transaction confirms); then "still processing".
  const { status, message } = await handleReturn(paymentsClient(), await shopOrders(), orderId, request.url, {
    onFulfil: fulfil,
  });
  return page(status, message);
}

/** A real app would redirect to a page of its own (`NextResponse.redirect(new URL("/orders/…", request.url), 303)`). */
function page(status: number, message: string): NextResponse {
  return new NextResponse(message, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}
