/**
 * Idempotency keys: a UUID v4 from the `uuid` package per call. The package is imported with the first keyed call,
 * not with the SDK (importing the SDK loads none of its dependencies).
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
