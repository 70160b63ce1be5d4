/**
 * What the API remembers between requests: idempotent answers (for replays) and rate-limit windows.
 *
 * @module
 */

/** A stored idempotent answer. */
export interface IdempotencyRecord {
  /** `Merchant-Id` + canonical JSON body of the first request. */
  fingerprint: string;
  /** Original status. */
  status: number;
  /** Original body. */
  body: string;
}

/** Idempotent answers by scope (`account|mode|METHOD path|key`). */
export class ReplayStore {
  readonly #records = new Map<string, IdempotencyRecord>();

  /** The answer stored under a scope. */
  find(scope: string): IdempotencyRecord | undefined {
    return this.#records.get(scope);
  }

  /** Stores an answer. */
  remember(scope: string, record: IdempotencyRecord): void {
    this.#records.set(scope, record);
  }

  /** Forgets everything. */
  clear(): void {
    this.#records.clear();
  }
}

/** Fixed windows of requests per credential. */
export class RateWindows {
  readonly #windows = new Map<string, { start: number; count: number }>();

  /** Counts a request; the seconds to wait when it is over `limit`, else null. */
  hit(credential: string, now: number, limit: number, windowMs: number): number | null {
    let w = this.#windows.get(credential);
    if (!w || now >= w.start + windowMs) {
      w = { start: now, count: 0 };
      this.#windows.set(credential, w);
    }
    w.count++;
    return w.count <= limit ? null : Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
  }

  /** Forgets everything. */
  clear(): void {
    this.#windows.clear();
  }
}
