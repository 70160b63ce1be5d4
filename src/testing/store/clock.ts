/**
 * The mock's clock: a base clock (injectable) plus the offset `advanceTime()` adds.
 *
 * @module
 */

import { MockServiceError } from "./errors.js";

/** The last instant with a 4-digit-year ISO 8601 string: 9999-12-31T23:59:59.999Z. */
const LATEST_TIME = 253_402_300_799_999;

/** Mock time: the base clock plus an offset that only grows (until `reset()`). */
export class MockClock {
  #offsetMs = 0;

  /** Creates the clock over a base clock (epoch ms). */
  constructor(private readonly base: () => number) {}

  /** Current mock time (epoch ms). */
  now(): number {
    return this.base() + this.#offsetMs;
  }

  /** Moves the clock forward; at most up to year 9999 (beyond it a date has no ISO 8601 string). */
  advance(ms: number): void {
    const limit = LATEST_TIME - this.now();
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0 || ms > limit) {
      throw new MockServiceError(
        400,
        "invalid_request",
        `ms must be a number in 0..${limit} (up to year 9999).`,
        {
          field: "ms",
        },
      );
    }
    this.#offsetMs += ms;
  }

  /** Back to the base clock. */
  reset(): void {
    this.#offsetMs = 0;
  }
}
