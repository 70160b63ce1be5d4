/**
 * The doctor's report: its JSON shape (`--json`), the short table people read, and the exit status.
 *
 * @module
 */
import type { Mode } from "../core/options.js";
import type { DriftEntry } from "./drift.js";

/** What one operation did. */
export interface OperationReport {
  /** The SDK method: `merchants.list`, `payments.status`, `checkout.create`, … */
  name: string;
  outcome: "ok" | "drift" | "error";
  /** Where the answer differs from what the SDK reads (empty when `ok`). */
  drift: DriftEntry[];
  /** Why the call failed (only when `error`): the SDK's error class, the HTTP status and the service's code. */
  error?: { class: string; status: number | null; code: string | null };
  /** From the call to its answer read, in milliseconds. */
  latencyMs: number;
  /** The rate-limit headers of the answer (`RateLimit-*`, `X-RateLimit-*`, `Retry-After`), when it sent any. */
  rateLimit?: Record<string, string>;
}

/** What `--json` prints. */
export interface DoctorReport {
  service: {
    baseUrl: string;
    /** The mode the key acts in. */
    mode: Mode;
    /** The API version the service echoed (a `*-Version` header), or `null` when it sent none. */
    version: string | null;
    /** The service's clock (`Date` header) minus this machine's, in milliseconds (±1 s resolution); `null` without one. */
    clockSkewMs: number | null;
  };
  operations: OperationReport[];
}

/** 0 when no operation has `missing`, `type` or `error`; 1 otherwise. */
export function exitStatusOf(report: DoctorReport): 0 | 1 {
  const broken = report.operations.some(
    (op) => op.outcome === "error" || op.drift.some((d) => d.kind === "missing" || d.kind === "type"),
  );
  return broken ? 1 : 0;
}

/** Colour is for a terminal only, and never when `NO_COLOR` is set to anything (https://no-color.org). */
export function colourWanted(
  isTerminal: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return isTerminal === true && (env.NO_COLOR ?? "") === "";
}

/** Colours of the outcome column. */
const COLOURS = { ok: "\u001b[32m", drift: "\u001b[33m", error: "\u001b[31m" } as const;
const RESET = "\u001b[0m";

/** The short table: one line per operation, the service's version and clock skew above, a summary below. */
export function humanReport(report: DoctorReport, notes: readonly string[], colour: boolean): string {
  const { service, operations } = report;
  const skew =
    service.clockSkewMs === null ? "no Date header" : `clock skew ${signed(service.clockSkewMs)} ms`;
  const lines = [
    `merchant-payments doctor: ${service.baseUrl} (${service.mode} mode), version ${service.version ?? "not echoed"}, ${skew}`,
    "",
    `  ${"operation".padEnd(22)}${"outcome".padEnd(9)}${"latency".padStart(9)}  details`,
  ];
  for (const op of operations) {
    const outcome = op.outcome.padEnd(9);
    const painted = colour ? `${COLOURS[op.outcome]}${outcome}${RESET}` : outcome;
    const latency = `${op.latencyMs} ms`.padStart(9);
    lines.push(`  ${op.name.padEnd(22)}${painted}${latency}  ${detailsOf(op)}`.trimEnd());
  }
  const count = (outcome: OperationReport["outcome"]) =>
    operations.filter((op) => op.outcome === outcome).length;
  lines.push(
    "",
    `${operations.length} operations: ${count("ok")} ok, ${count("drift")} drift, ${count("error")} error.`,
    ...notes.map((note) => `Note: ${note}`),
  );
  return `${lines.join("\n")}\n`;
}

function detailsOf(op: OperationReport): string {
  const parts: string[] = [];
  if (op.error)
    parts.push([op.error.class, op.error.status, op.error.code].filter((p) => p !== null).join(" "));
  const kinds = ["missing", "type", "enum", "extra"] as const;
  for (const kind of kinds) {
    const paths = op.drift.filter((d) => d.kind === kind).map((d) => d.path || "(body)");
    if (paths.length > 0) parts.push(`${kind}: ${paths.join(", ")}`);
  }
  if (op.rateLimit) {
    parts.push(
      Object.entries(op.rateLimit)
        .map(([name, value]) => `${name}=${value}`)
        .join(" "),
    );
  }
  return parts.join("; ");
}

function signed(ms: number): string {
  return ms > 0 ? `+${ms}` : String(ms);
}
