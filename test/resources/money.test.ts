import { describe, expect, it } from "vitest";
import { fromMinorUnits, money, toMinorUnits } from "../../src/index.js";
import { inputError } from "../helpers/assertions.js";
import { testClient } from "../helpers/clients.js";
import { json, useRecordingServer } from "../helpers/recording-server.js";

const mock = useRecordingServer();

describe("money helpers (public exports)", () => {
  it("convert with each currency's own digits, both ways", () => {
    expect(toMinorUnits("10.50", "USD")).toBe("1050");
    expect(toMinorUnits("1000", "JPY")).toBe("1000");
    expect(toMinorUnits("1.234", "KWD")).toBe("1234");
    expect(toMinorUnits(12n, "USD")).toBe("1200");
    expect(fromMinorUnits("1050", "USD")).toBe("10.50");
    expect(fromMinorUnits("5", "USD")).toBe("0.05");
    expect(fromMinorUnits("1000", "JPY")).toBe("1000");
    expect(fromMinorUnits("1234", "KWD")).toBe("1.234");
  });

  it("never round: a value with too many digits or a number is refused", () => {
    expect(inputError(() => toMinorUnits("10.505", "USD")).field).toBe("major");
    expect(inputError(() => toMinorUnits(10.5 as unknown as string, "USD")).field).toBe("major");
    expect(inputError(() => toMinorUnits("-1", "USD")).field).toBe("major");
    expect(inputError(() => toMinorUnits("1", "US")).field).toBe("currency");
    expect(inputError(() => fromMinorUnits("10.50", "USD")).field).toBe("minor");
  });

  it("money() builds an amount that payments.create sends as is", async () => {
    const amount = money("10.50", "USD");
    expect(amount).toEqual({ unit: "iso4217/USD", value: "1050" });
    mock.respond(json({ id: "pay_1", link: "https://wallet.example/pay/pay_1" }));
    const client = testClient({ merchantId: "mrch_1" });
    await client.payments.create({ referenceId: "order-1", amount });
    expect(JSON.parse(mock.requests[0]?.body ?? "").amount).toEqual({ unit: "iso4217/USD", value: "1050" });
  });
});
