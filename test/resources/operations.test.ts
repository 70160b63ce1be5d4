/**
 * The SDK's operation table against the mock's route table: the two are written apart, so a route the SDK calls
 * and the mock does not serve (or serves with another scope or key rule) fails here, not in a merchant's CI.
 */
import { describe, expect, it } from "vitest";
import { OPERATIONS, type OperationRow } from "../../src/operations.js";
import * as schemas from "../../src/schemas/operations.js";
// The mock's route table is not part of `merchant-payments/testing`'s public surface: read from its own module.
import { API_ROUTES } from "../../src/testing/api/routes.js";

const rows = Object.entries(OPERATIONS);
const key = (method: string, path: string) => `${method} ${path}`;
/** A mock route's path (MSW's `:name` form) in the document's form the SDK's rows use (`{name}`). */
const documentForm = (path: string) => path.replace(/:(\w+)/g, "{$1}");
const routeOf = (row: OperationRow) =>
  API_ROUTES.find((r) => r.method === row.method && documentForm(r.path) === row.path);

describe("the operation table", () => {
  it("names the same routes as the mock, no more and no fewer", () => {
    const sdk = rows.map(([, row]) => key(row.method, row.path)).sort();
    const mock = API_ROUTES.map((route) => key(route.method, documentForm(route.path))).sort();
    expect(sdk).toEqual(mock);
  });

  it.each(rows)("%s carries Merchant-Id exactly where the mock requires it", (_, row) => {
    const route = routeOf(row);
    expect(route).toBeDefined();
    expect(row.merchantScoped).toBe(route?.scope === "merchant");
  });

  it.each(rows)("%s always sends a key where the mock requires one", (_, row) => {
    const route = routeOf(row);
    if (route?.idempotency === "required") expect(row.idempotencyKey).toBe("always");
    if (route?.idempotency === "none") expect(row.method).toBe("GET");
  });

  it.each(rows)("%s, when a POST, always carries a key: a repeat never acts twice", (_, row) => {
    if (row.method === "POST") expect(row.idempotencyKey).toBe("always");
  });

  it.each(rows)("%s names rules and a response schema the SDK loads", (_, row) => {
    const loaded = schemas as Record<string, unknown>;
    expect(typeof loaded[row.response as string]).toBe("object");
    if ("body" in row) expect(typeof loaded[row.body]).toBe("function");
    if ("query" in row) expect(typeof loaded[row.query]).toBe("object");
  });
});
