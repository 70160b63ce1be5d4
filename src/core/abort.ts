/**
 * Waiting on a caller's `AbortSignal` (one listener per signal, however many calls share it), and the error its
 * abort is reported as.
 *
 * @module
 */
import { UserAbortError } from "../errors.js";

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

/**
 * The error to throw when the caller's signal aborted: a {@link UserAbortError} whose cause is the signal's reason.
 * A signal made by `AbortSignal.timeout(…)` says so in the message too: the caller set a deadline, it passed.
 */
export function abortErrorOf(signal: AbortSignal | undefined): UserAbortError {
  const reason: unknown = signal?.reason;
  const timedOut = reason instanceof Error && reason.name === "TimeoutError";
  const message = timedOut
    ? "The request was aborted: its signal timed out (AbortSignal.timeout)"
    : "The request was aborted";
  return new UserAbortError(message, { cause: reason });
}
