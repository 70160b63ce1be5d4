import { createMockService } from "merchant-payments/testing/msw";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GET } from "../../examples/nextjs/app/api/checkout/return/route.js";
import { POST } from "../../examples/nextjs/app/api/checkout/route.js";
import { closeShop, shopOrders } from "../../examples/nextjs/lib/shop.js";
import { useMswServer } from "../helpers/msw.js";

// The route handlers are plain (Request) => Promise<Response> functions: call them as Next.js would.
const mock = createMockService({ pollInMs: 20 });
const _msw = useMswServer(...mock.handlers);

beforeEach(() => {
  vi.stubEnv("MERCHANT_PAYMENTS_API_KEY", mock.keys.test);
  vi.stubEnv("MERCHANT_PAYMENTS_BASE_URL", mock.baseUrl);
  vi.stubEnv("MERCHANT_PAYMENTS_MERCHANT_ID", mock.merchantId);
  vi.stubEnv("PUBLIC_URL", "https://shop.example");
  vi.stubEnv("SHOP_DATA_DIR", "memory://"); // embedded PGlite, opened once by the first request
  vi.stubEnv("DATABASE_URL", undefined);
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  mock.reset();
});
afterAll(async () => {
  await closeShop();
});

const stateOf = async (orderId: string) => (await (await shopOrders()).get(orderId))?.state;

async function checkout(body: BodyInit, type: string) {
  const res = await POST(
    new NextRequest("https://shop.example/api/checkout", {
      method: "POST",
      headers: { "content-type": type },
      body,
    }),
  );
  return { res, payment: mock.payments.at(-1) };
}

describe("examples/nextjs route handlers", () => {
  it(
    "POST /api/checkout (a form post) redirects to the portal; the verified return fulfils",
    {
      timeout: 120_000,
    },
    async () => {
      const { res, payment } = await checkout(
        new URLSearchParams({ amount: "9.50", currency: "USD" }),
        "application/x-www-form-urlencoded",
      );
      if (!payment) throw new Error("no payment created");
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toContain(payment.id);
      expect(payment.amount.value).toBe("950");

      const back = mock.simulateBuyer(payment.id, { outcome: "success" }) ?? "";
      expect(back).toMatch(
        /^https:\/\/shop\.example\/api\/checkout\/return\?order=.*&landed=success&payment_id=/,
      );
      const page = await GET(new NextRequest(back));
      expect(page.status).toBe(200);
      expect(await stateOf(payment.referenceId)).toBe("fulfilled");
    },
  );

  it("a forged return does not fulfil", async () => {
    const { payment } = await checkout(JSON.stringify({ amount: "5", currency: "EUR" }), "application/json");
    if (!payment) throw new Error("no payment created");
    const forged = `https://shop.example/api/checkout/return?order=${payment.referenceId}&payment_id=pay_forged`;
    expect((await GET(new NextRequest(forged))).status).toBe(400);
    expect(await stateOf(payment.referenceId)).toBe("awaiting_payment");
  });

  it("a bad amount is a 400 and nothing is sent", async () => {
    const { res } = await checkout(JSON.stringify({ amount: "abc", currency: "USD" }), "application/json");
    expect(res.status).toBe(400);
    expect(mock.requests).toEqual([]);
  });
});
