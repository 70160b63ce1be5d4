/**
 * Custom operations (`client.request`): an operation the SDK does not wrap yet, described by the caller and turned
 * into one more row of the operations table (`operations.ts`), which the transport then runs exactly as it runs a
 * built-in one: the same headers, `Merchant-Id`, idempotency keys and retries, limits, redaction, typed errors,
 * reading modes, drift events and telemetry.
 *
 * @module
 */
import type * as z from "zod/mini";
import { ConfigurationError } from "./errors.js";
import type { JsonValue } from "./model/json.js";
import type { CallInput, HttpMethod, OperationRow } from "./operations.js";
import { describeType, isRecord, nearestName } from "./validate/issues.js";
import { pathTemplateProblem, templateParameters } from "./validate/path-template.js";

/** An operation the SDK does not wrap, as `client.request()` takes it. */
export interface CustomOperation<S extends z.core.$ZodType | undefined = undefined> {
  /** `GET`, `POST`, `PUT`, `PATCH` or `DELETE`. */
  method: HttpMethod;
  /**
   * Path template below the client's `baseUrl`, in the interface document's form: `/v1/merchants/{merchantId}`.
   * Never an absolute URL, a query string, `..` or an escaped slash: those are refused before anything is sent.
   */
  path: string;
  /** The value of each `{name}` of `path`, each sent as one encoded path segment. Exactly the template's names. */
  params?: Record<string, string> | undefined;
  /** Query parameters: strings, finite numbers and booleans, sent in their string form; `undefined` is left out. */
  query?: Record<string, string | number | boolean | undefined> | undefined;
  /** The JSON body (plain objects, arrays, strings, finite numbers, booleans, `null`); none when `undefined`. */
  body?: unknown;
  /**
   * A zod schema the 2xx body must match: the result is its output, read strictly or tolerantly as the client's
   * `responseValidation` says (drift events included). Without one the result is the parsed JSON as sent.
   */
  response?: S;
  /** Send `Merchant-Id` (from `options.merchantId` or the client's `merchantId`), as payment operations do. */
  merchantScoped?: boolean | undefined;
  /**
   * `"always"`: an `Idempotency-Key` is sent on every call (a fresh UUID unless `options.idempotencyKey` gives one),
   * so a POST may be retried safely. `"given"`: only when the caller gives one. Default `"always"` for POST (as every
   * built-in POST), `"given"` otherwise. A POST or PATCH without a key is never retried.
   */
  idempotency?: "always" | "given" | undefined;
}

/** What `client.request()` resolves to: the output of `response`, or the parsed JSON (`undefined` for no body). */
export type CustomResult<S extends z.core.$ZodType | undefined> = S extends z.core.$ZodType
  ? z.output<S>
  : JsonValue | undefined;

const METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

const FIELDS = [
  "method",
  "path",
  "params",
  "query",
  "body",
  "response",
  "merchantScoped",
  "idempotency",
] as const;

/**
 * The row and the call input of a custom operation.
 *
 * @throws {ConfigurationError} naming what is wrong with the operation (an unknown field, a method, the path
 *   template, a parameter without a value or a value without a parameter), before anything is sent.
 */
export function customRow(operation: unknown): { row: OperationRow; input: CallInput } {
  if (!isRecord(operation)) {
    fail(
      `must be an object such as { method: "GET", path: "/v1/merchants" }, got ${describeType(operation)}`,
    );
  }
  checkFields(operation);
  const { method, path, params, query, body, response } = operation;
  if (!METHODS.includes(method as HttpMethod)) {
    fail(
      `method must be one of ${METHODS.join(", ")}, got ${typeof method === "string" ? method : describeType(method)}`,
    );
  }
  const pathProblem = pathTemplateProblem(path);
  if (pathProblem !== undefined) fail(`path ${pathProblem}`);
  checkParams(path as string, params);
  if (body !== undefined && method === "GET")
    fail("a GET cannot carry a body: send it with POST, PUT or PATCH");
  if (response !== undefined && !isSchema(response))
    fail(`response must be a zod schema, got ${describeType(response)}`);
  const row: OperationRow = {
    call: "client.request(operation, options)",
    method: method as HttpMethod,
    path: path as string,
    merchantScoped: flag(operation.merchantScoped),
    idempotencyKey: idempotencyOf(method as HttpMethod, operation.idempotency),
    ...(body !== undefined && { body: "toJsonBody" as const }),
    ...(query !== undefined && { query: "flatQuerySchema" as const }),
    response: (response as z.core.$ZodType | undefined) ?? "anyJsonSchema",
  };
  return { row, input: { params: (params as Record<string, unknown> | undefined) ?? {}, body, query } };
}

function fail(problem: string): never {
  throw new ConfigurationError(`client.request: the operation's ${problem}.`);
}

function checkFields(operation: Record<string, unknown>): void {
  const known: readonly string[] = FIELDS;
  for (const name of Object.keys(operation)) {
    if (known.includes(name)) continue;
    const nearest = nearestName(name, known);
    const advice =
      name === "headers" || name === "idempotencyKey" ? "; request options go in the second argument" : "";
    fail(`field ${name} is not known${nearest ? ` (did you mean ${nearest}?)` : ""}${advice}`);
  }
}

/** Every `{name}` of the template has a value in `params`, and `params` names nothing else. */
function checkParams(path: string, params: unknown): void {
  if (params !== undefined && !isRecord(params))
    fail(`params must be an object, got ${describeType(params)}`);
  const names = templateParameters(path);
  const given = params === undefined ? [] : Object.keys(params);
  const missing = names.find((name) => !given.includes(name));
  if (missing !== undefined) fail(`path names {${missing}}, and params gives no ${missing}`);
  const extra = given.find((name) => !names.includes(name));
  if (extra !== undefined) fail(`params gives ${extra}, which the path does not name as {${extra}}`);
}

function flag(value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") fail(`merchantScoped must be a boolean, got ${describeType(value)}`);
  return value;
}

function idempotencyOf(method: HttpMethod, value: unknown): "always" | "given" {
  if (value === undefined) return method === "POST" ? "always" : "given";
  if (value !== "always" && value !== "given") fail('idempotency must be "always" or "given"');
  return value;
}

/** A zod 4 schema (classic or mini): what the reading runs. */
function isSchema(value: unknown): value is z.core.$ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}
