/**
 * Fault injection: answers that go wrong on purpose (429, 5xx, latency, dropped connections,
 * truncated JSON, HTML bodies), for the next N matching requests or a seeded share of them.
 *
 * @module
 */

import { html, json, type RawResponse } from "./http.js";

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
   * Only requests whose path matches: an exact path, where each `*` stands for any run of characters
   * (e.g. `/v1/payments*`, or `/v1/merchants/` + `*` + `/settlements`). No regular expression is run: a pattern
   * costs time linear in the path, whatever it holds.
   */
  path?: string;
  /**
   * `false` (default): the fault replaces the answer and the operation does not happen.
   * `true`: the operation takes effect, then the answer is lost/replaced (for testing idempotent retries).
   */
  after?: boolean;
  /** `serverError`: the status (500..599, default 500). `malformedJson`: status 100..599 (default: the real one, or 200). `html`: status 100..599 (default 502). */
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

const SPEC_FIELDS: ReadonlySet<string> = new Set([
  "type",
  "times",
  "rate",
  "method",
  "path",
  "after",
  "status",
  "retryAfterSeconds",
  "latencyMs",
]);

/** The longest injected delay, and the longest `Retry-After`: a day, far beyond any test. */
const MAX_LATENCY_MS = 86_400_000;
const MAX_RETRY_AFTER_SECONDS = 86_400;

const isInteger = (value: unknown, min: number, max: number): boolean =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;

/** What is wrong with one field of a fault spec, or undefined. */
function fieldProblem(spec: Record<string, unknown>, name: string): string | undefined {
  const value = spec[name];
  if (value === undefined) return undefined;
  switch (name) {
    case "type":
      return FAULT_TYPES.has(value as string) ? undefined : `unknown fault type: ${String(value)}`;
    case "times":
      return isInteger(value, 0, Number.MAX_SAFE_INTEGER) ? undefined : "times must be an integer >= 0";
    case "rate":
      return typeof value === "number" && value >= 0 && value <= 1
        ? undefined
        : "rate must be a number in 0..1";
    case "method":
      return typeof value === "string" && /^[A-Za-z]{1,16}$/.test(value)
        ? undefined
        : "method must be a method name";
    case "path":
      return typeof value === "string" && /^\/[\x21-\x7e]{0,1023}$/.test(value)
        ? undefined
        : "path must be a path starting with / (printable, no spaces; * for any run of characters)";
    case "after":
      return typeof value === "boolean" ? undefined : "after must be a boolean";
    case "status": {
      const min = spec.type === "serverError" ? 500 : 100;
      return isInteger(value, min, 599) ? undefined : `status must be an integer in ${min}..599`;
    }
    case "retryAfterSeconds":
      return isInteger(value, 0, MAX_RETRY_AFTER_SECONDS)
        ? undefined
        : `retryAfterSeconds must be an integer in 0..${MAX_RETRY_AFTER_SECONDS}`;
    case "latencyMs":
      return isInteger(value, 0, MAX_LATENCY_MS)
        ? undefined
        : `latencyMs must be an integer in 0..${MAX_LATENCY_MS}`;
    default:
      return `unknown field: ${name}`;
  }
}

/**
 * Checks a whole fault spec (throws a TypeError naming the first problem): an answer built from it can
 * never fail to be written (a status out of range or a header holding CR/LF would throw in `writeHead`).
 */
export function validateFaultSpec(spec: MockFaultSpec): void {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
    throw new TypeError("a fault spec must be an object");
  }
  const record = spec as unknown as Record<string, unknown>;
  if (record.type === undefined) throw new TypeError("type is required");
  for (const name of Object.keys(record)) {
    const problem = SPEC_FIELDS.has(name) ? fieldProblem(record, name) : `unknown field: ${name}`;
    if (problem !== undefined) throw new TypeError(problem);
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

/**
 * Matches `path` against a pattern where `*` stands for any run of characters. Each literal piece is
 * found with `indexOf`, leftmost first, which is enough for `*` (no backtracking, no regular expression).
 */
export function pathMatches(pattern: string, path: string): boolean {
  const pieces = pattern.split("*");
  if (pieces.length === 1) return pattern === path;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (!path.startsWith(first) || path.length < first.length + last.length) return false;
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = path.indexOf(piece, at);
    if (found === -1) return false;
    at = found + piece.length;
  }
  return path.length - last.length >= at && path.endsWith(last);
}

function serverErrorCode(status: number): string {
  switch (status) {
    case 500:
      return "internal_error";
    case 502:
      return "bad_gateway";
    case 503:
      return "service_unavailable";
    case 504:
      return "gateway_timeout";
    default:
      return "server_error";
  }
}

/** The answer a fault gives, in place of (or made from) the real one. */
export function faultResponse(spec: MockFaultSpec, real: RawResponse | null): RawResponse {
  switch (spec.type) {
    case "rateLimit": {
      const retry = spec.retryAfterSeconds ?? 1;
      return json(
        429,
        {
          message: "Rate limit exceeded (injected fault).",
          code: "rate_limited",
          details: { retryAfterSeconds: retry },
        },
        { "retry-after": String(retry) },
      );
    }
    case "serverError": {
      const status = spec.status ?? 500;
      return json(status, { message: `Injected server error ${status}.`, code: serverErrorCode(status) });
    }
    case "drop":
      return { status: 0, headers: {}, body: "", drop: true };
    case "malformedJson": {
      const full = real?.body ?? '{"message":"Partial response","code":"partial"}';
      const cut = Math.max(1, Math.floor(full.length / 2));
      return {
        status: spec.status ?? real?.status ?? 200,
        headers: { ...real?.headers, "content-type": "application/json" },
        body: full.slice(0, Math.min(cut, full.length - 1)),
      };
    }
    case "html": {
      const status = spec.status ?? 502;
      return html(
        status,
        `<html><head><title>${status}</title></head><body><h1>${status} Bad Gateway</h1></body></html>`,
      );
    }
    case "latency":
      return real ?? json(500, { message: "latency fault without answer", code: "internal_error" });
  }
}
