/**
 * `telemetry: true` in an app without the optional peer `@opentelemetry/api` (issue 25 item 2): the client is made,
 * the missing package is reported once, right after construction (a warning through the client's logger, naming
 * what to install), and every call goes on untraced. The missing package is simulated with `vi.mock`: importing it
 * fails as it does when it is not installed.
 */
import { describe, expect, it, vi } from "vitest";
import { createMockService } from "../../src/testing/msw.js";
import { useMswServer } from "../helpers/msw.js";
import { waitUntil } from "../helpers/time.js";
import { clientWithWarnings } from "../helpers/warnings.js";

vi.mock("@opentelemetry/api", () => {
  throw new Error("Cannot find package '@opentelemetry/api' imported from merchant-payments");
});

const service = createMockService();
useMswServer(...service.handlers);

describe("telemetry without @opentelemetry/api installed", () => {
  it("is reported once at construction, and every call goes on untraced", async () => {
    const { client, warnings } = clientWithWarnings(service, { telemetry: true });
    // Before any call: the import started with the client.
    await waitUntil(() => warnings.length > 0, "the warning about the missing package");
    expect(warnings).toEqual([
      expect.stringMatching(/telemetry is turned off .*@opentelemetry\/api.*npm install @opentelemetry\/api/),
    ]);
    const { id } = await client.payments.create({
      referenceId: "order-1",
      amount: { unit: "iso4217/USD", value: "100" },
    });
    expect((await client.payments.status(id)).status).toBe("requires_action");
    expect(warnings).toHaveLength(1);
  });
});
