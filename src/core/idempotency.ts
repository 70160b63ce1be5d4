/**
 * Idempotency keys: a UUID v4 from the `uuid` package per call. The package is imported with the first keyed call,
 * not with the SDK (importing the SDK loads none of its dependencies); once loaded, a key is made at once, without
 * a promise: a keyed call then pays no extra turn of the microtask queue.
 *
 * @module
 */
let v4: (() => string) | undefined;
let loading: Promise<() => string> | undefined;

/** A fresh key: random, so two calls never share one, and the same on every retry of one call. */
export function newIdempotencyKey(): string | Promise<string> {
  if (v4 !== undefined) return v4();
  loading ??= import("./uuid.js").then(
    (loaded) => (v4 = loaded.v4),
    (error: unknown) => {
      loading = undefined; // the next keyed call tries again
      throw error;
    },
  );
  return loading.then((make) => make());
}
