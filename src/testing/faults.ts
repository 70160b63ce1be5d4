/**
 * Fault injection: answers that go wrong on purpose (429, 5xx, latency, dropped connections,
 * truncated JSON, HTML bodies), for the next N matching requests or a seeded share of them.
 *
 * @module
 */

/** Kinds of faults. */
export type MockFaultType = "rateLimit" | "serverError" | "latency" | "drop" | "malformedJson" | "html";

/** What to inject. Control endpoints (`/__mock/...`) are never affected. */
export interface MockFaultSpec {
  /** The kind of fault. */
  type: MockFaultType;
  /** How many matching requests to affect. Default 1, or unlimited when `rate` is set. */
  times?: number;
  /** Share of matching requests to affect, 0..1, drawn from the seeded RNG (`randomSeed` option). */
  rate?: number;
  /** Only requests with this HTTP method (case-insensitive). */
  method?: string;
  /**
   * Only requests whose path matches: a string is an exact path, or a prefix when it ends with `*`
   * (e.g. `/v1/payments*`); a RegExp is tested against the path.
   */
  path?: string | RegExp;
  /**
   * `false` (default): the fault replaces the answer and the operation does not happen.
   * `true`: the operation takes effect, then the answer is lost/replaced (for testing idempotent retries).
   */
  after?: boolean;
  /** `serverError`: the status (500..599, default 500). `malformedJson`: status (default: the real one, or 200). `html`: status (default 502). */
  status?: number;
  /** `rateLimit`: value of `Retry-After` in seconds (default 1). */
  retryAfterSeconds?: number;
  /** `latency`: added delay in ms (default 1000). Real time, not the mock clock. */
  latencyMs?: number;
}

/** A fault that was injected. */
export interface MockFaultHandle {
  /** Identifier (used by the HTTP control `DELETE /__mock/faults/{id}`). */
  readonly id: string;
  /** The spec. */
  readonly spec: Readonly<MockFaultSpec>;
  /** How many requests it affected so far. */
  readonly hits: number;
  /** Requests it may still affect. */
  readonly remaining: number;
  /** Stops the fault. */
  remove(): void;
}

interface ActiveFault {
  id: string;
  spec: MockFaultSpec;
  remaining: number;
  hits: number;
}

const FAULT_TYPES: ReadonlySet<string> = new Set([
  "rateLimit",
  "serverError",
  "latency",
  "drop",
  "malformedJson",
  "html",
]);

/** Checks a fault spec (throws a TypeError when invalid). */
export function validateFaultSpec(spec: MockFaultSpec): void {
  if (!FAULT_TYPES.has(spec.type)) throw new TypeError(`unknown fault type: ${String(spec.type)}`);
  if (spec.rate !== undefined && !(spec.rate >= 0 && spec.rate <= 1))
    throw new TypeError("rate must be in 0..1");
  if (spec.times !== undefined && !(spec.times >= 0)) throw new TypeError("times must be >= 0");
  if (
    spec.type === "serverError" &&
    spec.status !== undefined &&
    !(spec.status >= 500 && spec.status <= 599)
  ) {
    throw new TypeError("serverError status must be 500..599");
  }
}

/** The list of active faults. */
export class FaultRegistry {
  private faults: ActiveFault[] = [];
  private nextId = 1;

  /** Creates an empty registry drawing shares from `random`. */
  constructor(private readonly random: () => number) {}

  /** Adds a fault. */
  add(spec: MockFaultSpec): MockFaultHandle {
    validateFaultSpec(spec);
    const fault: ActiveFault = {
      id: `fault_${this.nextId++}`,
      spec: { ...spec },
      remaining: spec.times ?? (spec.rate !== undefined ? Number.POSITIVE_INFINITY : 1),
      hits: 0,
    };
    this.faults.push(fault);
    const remove = (): void => {
      this.faults = this.faults.filter((f) => f !== fault);
    };
    return {
      id: fault.id,
      spec: fault.spec,
      get hits() {
        return fault.hits;
      },
      get remaining() {
        return fault.remaining;
      },
      remove,
    };
  }

  /** Removes one fault by id; true when it existed. */
  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    return this.faults.length !== before;
  }

  /** Removes every fault. */
  clear(): void {
    this.faults = [];
  }

  /** Active faults (for inspection). */
  list(): { id: string; spec: MockFaultSpec; remaining: number; hits: number }[] {
    return this.faults.map((f) => ({ id: f.id, spec: { ...f.spec }, remaining: f.remaining, hits: f.hits }));
  }

  /** Picks the fault for a request (the first that matches and rolls), consuming one use. */
  take(method: string, path: string): MockFaultSpec | undefined {
    if (this.faults.length === 0) return undefined;
    for (const fault of this.faults) {
      if (fault.remaining <= 0) continue;
      const { spec } = fault;
      if (spec.method && spec.method.toUpperCase() !== method) continue;
      if (spec.path !== undefined && !pathMatches(spec.path, path)) continue;
      if (spec.rate !== undefined && this.random() >= spec.rate) continue;
      fault.remaining--;
      fault.hits++;
      if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
      return spec;
    }
    return undefined;
  }
}

function pathMatches(pattern: string | RegExp, path: string): boolean {
  if (typeof pattern !== "string") return pattern.test(path);
  if (pattern.endsWith("*")) return path.startsWith(pattern.slice(0, -1));
  return pattern === path;
}
