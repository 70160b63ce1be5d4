/**
 * Time in tests: real waits bounded in count and time (`waitUntil`), and fake time for tests that wait on the SDK's
 * timers.
 *
 * Fake time: the SDK's waits (polling intervals, deadlines, retry back-off, ky's timeout) run on
 * `setTimeout`, which `useFakeTime()` replaces, so a test passes minutes in no time and never races the wall clock.
 * `setImmediate` and `process.nextTick` stay real: MSW answers in process through them and through promises.
 *
 * `advanceUntilSettled(promise)` moves the fake clock one timer at a time. Before each timer it lets the work under way finish:
 * the calls registered with `trackCalls` (an SDK call, lazy module loading included) unless the mock holds their
 * answer back on purpose (`holdsAnswers`), then a fixed number of event-loop turns for what follows an answer
 * (promise chains only, so the number needed does not depend on the machine's load). A request therefore takes no
 * fake time, and a deadline only fires once every answer due before it was read.
 */
import { afterEach, beforeEach, vi } from "vitest";

/** Event-loop turns given to in-process work before each fake timer fires. */
const TURNS = 50;
/** More fake timers than any test fires: past this, the promise is taken to hang. */
const MAX_TIMERS = 100_000;
/** Real time a tracked call may take (module loading on a loaded machine) before it is reported as a hang. */
const MAX_BUSY_NS = 30_000_000_000n;

let callsUnderWay = 0;
const holders = new Set<() => number>();
const answersHeld = () => [...holders].reduce((sum, held) => sum + held(), 0);

/** Installs fake `setTimeout` (with `Date` and `performance.now()`) for each test of the file, removed after. */
export function useFakeTime(): void {
  beforeEach(installFakeTime);
  afterEach(() => {
    vi.useRealTimers();
  });
}

function installFakeTime(): void {
  callsUnderWay = 0;
  vi.useFakeTimers({
    toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date", "performance"],
  });
}

/** Runs `run` on fake time (see {@link advanceUntilSettled}) for one test, and goes back to real time after. */
export function onFakeTime<T>(run: () => Promise<T>): Promise<T> {
  return withFakeTime(() => advanceUntilSettled(run()));
}

/** Runs `run` with fake time installed, the test driving the clock itself; goes back to real time after. */
export async function withFakeTime<T>(run: () => Promise<T>): Promise<T> {
  installFakeTime();
  try {
    return await run();
  } finally {
    vi.useRealTimers();
  }
}

/** Counts the calls of `target[method]` under way: `advanceUntilSettled` fires no timer while one is (see {@link holdsAnswers}). */
export function trackCalls<T extends object>(target: T, method: keyof T & string): T {
  const original = target[method] as (...args: unknown[]) => PromiseLike<unknown>;
  const tracked = (...args: unknown[]) => {
    callsUnderWay++;
    const result = original.apply(target, args);
    const done = () => {
      callsUnderWay--;
    };
    Promise.resolve(result).then(done, done);
    return result;
  };
  Object.defineProperty(target, method, { value: tracked, configurable: true, writable: true });
  return target;
}

/** A mock tells how many answers it holds back on purpose (a request it never answers is not work under way). */
export function holdsAnswers(held: () => number): void {
  holders.add(held);
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Lets the work under way (tracked calls, then what follows their answers) run to its next fake timer. */
export async function flushInProcess(): Promise<void> {
  const started = process.hrtime.bigint();
  while (callsUnderWay > answersHeld()) {
    if (process.hrtime.bigint() - started > MAX_BUSY_NS)
      throw new Error("fake time: a tracked call never ended");
    await turn();
  }
  for (let i = 0; i < TURNS; i++) await turn();
}

/** Fires fake timers in order, with the work under way finished before each, until `promise` settles; returns it. */
export async function advanceUntilSettled<T>(promise: Promise<T>): Promise<T> {
  let done = false;
  const observed = promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let fired = 0; ; fired++) {
    await flushInProcess();
    if (done) break;
    if (vi.getTimerCount() === 0)
      throw new Error("advanceUntilSettled: the promise waits on nothing the fake clock can fire");
    if (fired >= MAX_TIMERS)
      throw new Error(`advanceUntilSettled: still pending after ${MAX_TIMERS} fake timers`);
    await vi.advanceTimersToNextTimerAsync();
  }
  await observed;
  return promise;
}

/**
 * Passes `ms` of fake time at once, the work under way finished before and after: for showing that an idle SDK
 * sends nothing more. Unlike {@link advanceUntilSettled}, work started by a timer is not finished before the next one fires.
 */
export async function passTime(ms: number): Promise<void> {
  await flushInProcess();
  await vi.advanceTimersByTimeAsync(ms);
  await flushInProcess();
}

/** Real time (and event-loop turns) a test waits for something it started to happen, before failing. */
const WAIT_UNTIL_NS = 10_000_000_000n;
const WAIT_UNTIL_TURNS = 1_000_000;

/**
 * Waits, in real time, until `condition()` holds: every event-loop turn, bounded in count and time (10 s), then
 * fails naming `what`. For an event the test itself set off (a request sent, a hook called), never to pace a check.
 */
export async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  const started = process.hrtime.bigint();
  for (let i = 0; !condition(); i++) {
    if (i >= WAIT_UNTIL_TURNS || process.hrtime.bigint() - started > WAIT_UNTIL_NS) {
      throw new Error(`waitUntil: ${what} did not happen`);
    }
    await turn();
  }
}

/**
 * Whether `promise` settles within `turns` event-loop turns: "at once" without a clock. For work that is all in
 * process (MSW, the in-process mock), so the number of turns it needs does not depend on the machine's load.
 */
export async function settlesWithinTurns(promise: Promise<unknown>, turns = 100): Promise<boolean> {
  let settled = false;
  const mark = () => {
    settled = true;
  };
  promise.then(mark, mark);
  for (let i = 0; i < turns && !settled; i++) await turn();
  return settled;
}
