/**
 * The headers of a request (the client's base set, a caller's extra headers, the per-call ones) and what a
 * response's headers show (the request id, the copy `withResponse()` exposes).
 *
 * @module
 */
import { type InputIssue, InputValidationError } from "../errors.js";
import {
  CREDENTIAL_HEADERS,
  headerNameProblem,
  headerValueTextProblem,
  RESERVED_HEADERS,
} from "../validate/headers.js";
import { inputIssue, invalidInput } from "../validate/issues.js";
import { SDK_VERSION } from "../version.js";
import type { ResolvedConfig } from "./config.js";
import type { Redactor } from "./redact.js";
import type { RequestOptions } from "./request-options.js";
import type { PlainHeaders } from "./wire/response.js";

const USER_AGENT = `merchant-payments/${SDK_VERSION}`;

/**
 * Response headers that may carry the service's request id, in order of preference. The interface document names
 * none: these are a guess (the bundled mock sends `Request-Id`), kept here and nowhere else.
 */
export const REQUEST_ID_HEADERS: readonly string[] = ["request-id", "x-request-id"];

/** Response headers never exposed by `withResponse()`: credentials echoed back, and cookies. */
const HIDDEN_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  ...CREDENTIAL_HEADERS,
  "authorization",
  "proxy-authorization",
  "set-cookie",
  "cookie",
]);

/** A client's constant headers: on every call, and on a merchant-scoped one (the first and its `Merchant-Id`). */
export interface ConstantHeaders {
  all: Readonly<Record<string, string>>;
  merchantScoped: Readonly<Record<string, string>>;
}

/**
 * A client's constant headers, written by the wire beside each call's own (`http.ts`): the base set on every call,
 * with the client's `Merchant-Id` on the merchant-scoped ones. Lower-case names, so that a call's header of the same
 * name replaces one (a call's `apiVersion`, its `headers`, its `merchantId`).
 */
export function constantHeadersOf(config: ResolvedConfig): ConstantHeaders {
  const all = baseHeadersOf(config);
  const { merchantId } = config;
  return { all, merchantScoped: merchantId === undefined ? all : { ...all, "merchant-id": merchantId } };
}

/** The headers shared by every call of a client. */
function baseHeadersOf(config: ResolvedConfig): Record<string, string> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "user-agent": USER_AGENT,
    ...config.defaultHeaders,
  };
  const { credentials } = config;
  if (credentials.scheme === "apiKey") {
    headers["api-key"] = credentials.apiKey;
  } else {
    headers["app-id"] = credentials.appId;
    headers["client-id"] = credentials.clientId;
  }
  if (config.apiVersion !== undefined && config.versionHeader !== undefined) {
    headers[config.versionHeader.toLowerCase()] = config.apiVersion;
  }
  return headers;
}

/** What a call adds to the base headers. (A body's `Content-Type` is the wire's: `wire/request.ts`.) */
export interface CallHeaders {
  merchantScoped: boolean;
  idempotencyKey: string | undefined;
}

/**
 * The headers of one call beyond the client's {@link constantHeadersOf}, lower-case names, so that one replaces a base
 * header of the same name rather than doubling it up by case.
 */
export function callHeadersOf(
  config: ResolvedConfig,
  call: CallHeaders,
  options: RequestOptions,
): Record<string, string> {
  const headers = options.headers ? callerHeaders(options.headers, config.versionHeader) : {};
  const { apiVersion } = options;
  if (apiVersion !== undefined) {
    if (config.versionHeader === undefined) {
      throw invalidInput("options.apiVersion", "needs the client's versionHeader option");
    }
    headers[config.versionHeader.toLowerCase()] = apiVersion;
  }
  // The client's own merchant is one of its constant headers (constantHeadersOf): only a call's replaces it.
  if (call.merchantScoped) {
    if (options.merchantId !== undefined) headers["merchant-id"] = options.merchantId;
    else if (config.merchantId === undefined) {
      throw invalidInput(
        "merchantId",
        "is required for payment operations (and custom ones marked merchantScoped): set it on the client or per call",
      );
    }
  }
  if (call.idempotencyKey !== undefined) headers["idempotency-key"] = call.idempotencyKey;
  return headers;
}

/** A caller's extra headers, checked (fetch's rules, no reserved name) and lower-cased. */
function callerHeaders(
  headers: Record<string, string>,
  versionHeader: string | undefined,
): Record<string, string> {
  const issues: InputIssue[] = [];
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const field = `options.headers.${name}`;
    const lower = name.toLowerCase();
    const problem =
      headerNameProblem(name) ??
      (RESERVED_HEADERS.has(lower)
        ? "is set by the SDK (or frames the message): it cannot be given"
        : undefined) ??
      (lower === versionHeader?.toLowerCase()
        ? "is the version header: pin it with options.apiVersion"
        : undefined) ??
      headerValueTextProblem(value);
    if (problem === undefined) out[lower] = value;
    else issues.push(inputIssue(field, problem));
  }
  if (issues.length > 0) throw new InputValidationError(issues);
  return out;
}

/** An answer's headers: the `Headers`, and the same as a plain object when the wire kept one (`wire/response.ts`). */
export interface AnswerHeaders {
  headers: Headers;
  plainHeaders: PlainHeaders | undefined;
}

/** The request id of a response, redacted: a proxy may echo the key there too. */
export function requestIdOf(answer: AnswerHeaders, redactor: Redactor): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headerOf(answer, name);
    if (value) return redactor.text(value);
  }
  return undefined;
}

/**
 * One header as `Headers.get` gives it (`null` when absent), read from the plain object when there is one: for names
 * Node joins when repeated, as it does the request id's (not `content-type`, `retry-after`: see `PlainHeaders`).
 */
function headerOf({ headers, plainHeaders }: AnswerHeaders, name: string): string | null {
  if (plainHeaders === undefined) return headers.get(name);
  const value = plainHeaders[name];
  return value === undefined ? null : typeof value === "string" ? value : value.join(", ");
}

/** Whether the service replayed an earlier response for the same idempotency key (`Idempotent-Replayed: true`). */
export function isIdempotentReplay(headers: Headers): boolean {
  return headers.get("idempotent-replayed")?.toLowerCase() === "true";
}

/** The headers `withResponse()` shows: a copy without credentials or cookies, the key redacted from the rest. */
export function exposedHeaders(headers: Headers, redactor: Redactor): Headers {
  const exposed = new Headers();
  headers.forEach((value, name) => {
    if (!HIDDEN_RESPONSE_HEADERS.has(name)) exposed.append(name, redactor.text(value));
  });
  return exposed;
}
