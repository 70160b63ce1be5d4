/** A call's outcome as a value, and what a test file must leave behind: no unhandled rejection, no timer. */

/** Settles a call, whether it throws synchronously, rejects or resolves. */
export async function settle<T>(
  call: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The error a call fails with; the test fails when the call succeeds. */
export async function failureOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** Collects unhandled rejections of the test file; assert `seen` is empty at the end. */
export function trackUnhandledRejections(): { seen: unknown[]; stop(): void } {
  const seen: unknown[] = [];
  const onRejection = (reason: unknown) => seen.push(reason);
  process.on("unhandledRejection", onRejection);
  return { seen, stop: () => process.off("unhandledRejection", onRejection) };
}

/** Gives pending rejections a chance to be reported. */
export async function flushRejections(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Active timers of the process right now. */
export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;
}
