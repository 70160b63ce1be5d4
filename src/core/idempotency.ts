/**
 * Idempotency keys: UUID v4 from the `uuid` package, loaded with the first keyed call rather than with the SDK
 * (its entry point loads every UUID version, some 10 ms of a cold start that importing the SDK need not pay).
 *
 * @module
 */
let uuid: Promise<typeof import("./uuid.js")> | undefined;

/** A fresh key: random, so two calls never share one, and the same on every retry of one call. */
export async function newIdempotencyKey(): Promise<string> {
  uuid ??= import("./uuid.js").catch((error: unknown) => {
    uuid = undefined;
    throw error;
  });
  return (await uuid).v4();
}
