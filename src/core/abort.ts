/**
 * Waiting on a caller's `AbortSignal`: one listener per signal, however many calls share it.
 *
 * @module
 */
/** The callbacks waiting on one caller signal, behind the single listener the SDK adds to it. */
interface Subscribers {
  callbacks: Set<() => void>;
  listener: () => void;
}

const subscribersBySignal = new WeakMap<AbortSignal, Subscribers>();

/**
 * Runs `callback` when `signal` aborts, and returns the function that stops waiting. However many calls share one
 * signal (a worker's shutdown signal across thousands of watchers, say), the signal carries one listener: Node warns
 * past 10, and the listener goes when the last subscriber leaves.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let subscribers = subscribersBySignal.get(signal);
  if (!subscribers) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      subscribersBySignal.delete(signal);
      for (const run of callbacks) run();
    };
    subscribers = { callbacks, listener };
    subscribersBySignal.set(signal, subscribers);
    signal.addEventListener("abort", listener, { once: true });
  }
  const { callbacks, listener } = subscribers;
  callbacks.add(callback);
  return () => {
    if (!callbacks.delete(callback) || callbacks.size > 0) return;
    signal.removeEventListener("abort", listener);
    subscribersBySignal.delete(signal);
  };
}
