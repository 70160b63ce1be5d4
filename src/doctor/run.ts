/**
 * Running the doctor: one client (the merchant's own settings and environment variables, tolerant reading so the
 * checks can go on), every check of `checks.ts` in order under one deadline, each answer captured at the fetch
 * boundary and read strictly against its row's response schema, then the cleanup of what the checks created.
 *
 * @module
 */
import { MerchantPaymentsClient } from "../client.js";
import { REQUEST_ID_HEADERS } from "../core/headers.js";
import { parseJson } from "../validate/json.js";
import type { RequestOptions } from "../core/request-options.js";
import { ResponseValidationError } from "../errors.js";
import { OPERATIONS } from "../operations.js";
import { loadSchemas, type Schemas } from "../schemas/load.js";
import { type Check, CHECKS, type CheckContext, methodName } from "./checks.js";
import { type DriftEntry, driftOf } from "./drift.js";
import type { DoctorReport, OperationReport } from "./report.js";

/** What the doctor is run with; anything left out comes from the client's environment variables. */
export interface DoctorOptions {
  baseUrl?: string | undefined;
  merchantId?: string | undefined;
  /** A payment whose status to read (without one, a read-only run has none to read). */
  paymentId?: string | undefined;
  /** The service's version header (`<Prefix>-Version`): its echo is then required. */
  versionHeader?: string | undefined;
  /** Writes with a live key too (a payment and a checkout of 0.01 USD, both cancelled). */
  allowLiveWrites?: boolean | undefined;
  /** The deadline of the whole run, in milliseconds. */
  timeoutMs: number;
  /** The fetch to send with (tests); the global one otherwise. */
  fetch?: typeof fetch | undefined;
}

/** The report, and what a person should know beside it (checks left out, what could not be cleaned up). */
export interface DoctorRun {
  report: DoctorReport;
  notes: string[];
  /** The API key, for the caller to make sure no output holds it. */
  secret: string | undefined;
}

/** One answer, as the fetch boundary saw it. */
interface Captured {
  status: number;
  headers: Headers;
  text: string;
  receivedAt: number;
}

/** The largest answer the doctor reads: as much as the client reads by default. */
const MAX_ANSWER_BYTES = 1_048_576;

/**
 * Runs the checks. @throws {ConfigurationError} when the client cannot be made (no key, no base URL, a bad flag
 * value), before anything is sent.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorRun> {
  const answers: Captured[] = [];
  const client = new MerchantPaymentsClient({
    ...(options.baseUrl !== undefined && { baseUrl: options.baseUrl }),
    ...(options.merchantId !== undefined && { merchantId: options.merchantId }),
    ...(options.versionHeader !== undefined && { versionHeader: options.versionHeader }),
    fetch: capturing(options.fetch ?? globalThis.fetch, answers),
    responseValidation: "tolerant",
    maxRetries: 0,
    timeoutMs: options.timeoutMs,
  });
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new Error("the doctor's deadline passed")),
    options.timeoutMs,
  );
  try {
    // The schemas of the operations table, through the door the transport uses.
    const schemas = await loadSchemas();
    return await checkAll({ client, options, answers, signal: deadline.signal, schemas });
  } finally {
    clearTimeout(timer);
  }
}

/** One run: its client, what it was asked, the answers seen so far, its deadline and the table's schemas. */
interface Run {
  client: MerchantPaymentsClient;
  options: DoctorOptions;
  answers: Captured[];
  signal: AbortSignal;
  schemas: Schemas;
}

async function checkAll(run: Run): Promise<DoctorRun> {
  const { client, options, answers, signal } = run;
  const writes = client.mode === "test" || options.allowLiveWrites === true;
  const context: CheckContext = {
    merchantId: client.merchantId,
    paymentId: options.paymentId,
    createdPaymentId: undefined,
    checkoutId: undefined,
  };
  const operations: OperationReport[] = [];
  const notes: string[] = [];
  for (const check of CHECKS) {
    if (check.writes && !writes) continue;
    if (signal.aborted) {
      notes.push(`${methodName(check.operation)} was not run: the deadline (--timeout) passed.`);
      continue;
    }
    const report = await runCheck(run, check, context);
    if (report === undefined) notes.push(leftOut(check, writes));
    else operations.push(report);
  }
  if (!writes)
    notes.push(
      "Read-only run (a live key): pass --allow-live-writes to create and cancel a payment and a checkout.",
    );
  notes.push(...(await cleanUp(client, context, signal)));
  const secret = secretOf();
  return { report: { service: serviceOf(client, answers, options), operations }, notes, secret };
}

function merchantOf(context: CheckContext): RequestOptions {
  return context.merchantId === undefined ? {} : { merchantId: context.merchantId };
}

function leftOut(check: Check, writes: boolean): string {
  const name = methodName(check.operation);
  if (check.operation === "paymentStatus" && !writes)
    return `${name} was not run: pass --payment-id to read one.`;
  return `${name} was not run: no merchant or payment to run it on.`;
}

/** Runs one check and reads its answer strictly: `undefined` when the check had nothing to run on. */
async function runCheck(run: Run, check: Check, context: CheckContext): Promise<OperationReport | undefined> {
  const { client, answers, options } = run;
  const callOptions = { signal: run.signal, ...merchantOf(context) };
  const before = answers.length;
  const started = performance.now();
  let failure: unknown;
  try {
    const call = check.run(client, context, callOptions);
    if (call === undefined) return undefined;
    await call;
  } catch (error) {
    failure = error;
  }
  const latencyMs = Math.round(performance.now() - started);
  const answer = answers.length > before ? answers.at(-1) : undefined;
  const name = methodName(check.operation);
  const extra = { latencyMs, ...rateLimitOf(answer) };
  // A body that failed even the tolerant reading (its structure) is drift when the strict reading says where.
  const drift =
    failure === undefined || failure instanceof ResponseValidationError
      ? [...bodyDrift(run.schemas, check, answer), ...headerDrift(answer, options.versionHeader)]
      : [];
  if (failure !== undefined && drift.length === 0) {
    return { name, outcome: "error", drift, error: errorOf(failure), ...extra };
  }
  return { name, outcome: drift.length === 0 ? "ok" : "drift", drift, ...extra };
}

function bodyDrift(schemas: Schemas, check: Check, answer: Captured | undefined): DriftEntry[] {
  if (answer === undefined) return [];
  const parsed = parseJson(answer.text);
  if (parsed.kind !== "json" && parsed.kind !== "empty") return [];
  const name = OPERATIONS[check.operation].response;
  return driftOf(schemas[name], parsed.kind === "json" ? parsed.value : undefined);
}

/** The headers the SDK reads that the answer did not send: its request id, and the version echo when pinned. */
function headerDrift(answer: Captured | undefined, versionHeader: string | undefined): DriftEntry[] {
  if (answer === undefined) return [];
  const drift: DriftEntry[] = [];
  if (!REQUEST_ID_HEADERS.some((name) => answer.headers.has(name))) {
    drift.push({ path: `headers.${REQUEST_ID_HEADERS[0]}`, kind: "missing" });
  }
  if (versionHeader !== undefined && !answer.headers.has(versionHeader)) {
    drift.push({ path: `headers.${versionHeader.toLowerCase()}`, kind: "missing" });
  }
  return drift;
}

function errorOf(error: unknown): NonNullable<OperationReport["error"]> {
  const fields = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown>;
  return {
    class: error instanceof Error ? error.name : typeof error,
    status: typeof fields.status === "number" ? fields.status : null,
    code: typeof fields.code === "string" ? fields.code : null,
  };
}

const RATE_LIMIT_HEADER = /^(x-)?ratelimit(-|$)|^retry-after$/i;

function rateLimitOf(answer: Captured | undefined): { rateLimit?: Record<string, string> } {
  if (answer === undefined) return {};
  const rateLimit: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (RATE_LIMIT_HEADER.test(name)) rateLimit[name] = value;
  });
  return Object.keys(rateLimit).length > 0 ? { rateLimit } : {};
}

/** Cancels what the checks created and did not cancel: the payment (when its check failed) and the checkout. */
async function cleanUp(
  client: MerchantPaymentsClient,
  context: CheckContext,
  signal: AbortSignal,
): Promise<string[]> {
  const notes: string[] = [];
  for (const id of [context.createdPaymentId, context.checkoutId]) {
    if (id === undefined) continue;
    try {
      await client.payments.cancel(id, { signal, ...merchantOf(context) });
    } catch (error) {
      notes.push(
        `could not cancel payment ${id} the doctor created (${errorOf(error).class}): cancel it yourself.`,
      );
    }
  }
  return notes;
}

function serviceOf(client: MerchantPaymentsClient, answers: readonly Captured[], options: DoctorOptions) {
  const versionName = options.versionHeader?.toLowerCase();
  let version: string | null = null;
  for (const { headers } of answers) {
    headers.forEach((value, name) => {
      if (version === null && (versionName === undefined ? /-version$/i.test(name) : name === versionName)) {
        version = value;
      }
    });
  }
  const skews = answers
    // `Date` is cut to the second: its midpoint is compared, so clocks in step read within ±500 ms.
    .map(({ headers, receivedAt }) => Date.parse(headers.get("date") ?? "") + 500 - receivedAt)
    .filter((skew) => Number.isFinite(skew))
    .sort((a, b) => a - b);
  const clockSkewMs = skews.length === 0 ? null : Math.round(skews[Math.floor(skews.length / 2)]!);
  return { baseUrl: client.baseUrl, mode: client.mode, version, clockSkewMs };
}

function secretOf(): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.MERCHANT_PAYMENTS_API_KEY || undefined;
}

/** A fetch that keeps each answer it passes on (read whole, within {@link MAX_ANSWER_BYTES}). */
function capturing(fetch: typeof globalThis.fetch, answers: Captured[]): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const text = await boundedText(response);
    answers.push({ status: response.status, headers: response.headers, text, receivedAt: Date.now() });
    const { status, statusText, headers } = response;
    return new Response(text === "" ? null : text, { status, statusText, headers });
  };
}

async function boundedText(response: Response): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new TypeError(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    text += decoder.decode(value, { stream: true });
  }
}
