/**
 * Reading a 2xx response body: bounded JSON, the API key redacted, then the operation's schema in the client's
 * reading mode. A body that arrived is never reported as unsent: whatever is wrong with it is a
 * `ResponseValidationError` (or `ResponseTooLargeError`), and it is not retried (a body cut off in transit never
 * gets here: the wire reports it unreadable, and the transport retries it where that is safe).
 *
 * @module
 */
import type * as z from "zod/mini";
import {
  MAX_JSON_DEPTH,
  type RequestContext,
  ResponseTooLargeError,
  ResponseValidationError,
} from "../errors.js";
import type { Schemas } from "../schemas/load.js";
import type { ResponseReading, SchemaRunner } from "../schemas/parse.js";
import { parseJson } from "../validate/json.js";
import type { ResponseValidation } from "./options.js";
import type { Redactor } from "./redact.js";

/** What reading a body needs of the client. */
export interface BodyReader {
  readResponse: Schemas["readResponse"];
  redactor: Redactor;
  mode: ResponseValidation;
  /** How the schema runs: the SDK's own may run as zod's compiled code, a caller's runs as its author wrote it. */
  runner: SchemaRunner;
}

/** A body read: the schema's output, and each deviation a tolerant reading let through (none in strict mode). */
export type BodyReading<T> = Extract<ResponseReading<T>, { success: true }>;

/** The body of a 2xx response. */
export interface ResponseBody {
  status: number;
  text: string;
}

/** Reads `response` with `schema`: its output and drift, or a typed error. */
export function readBody<S extends z.core.$ZodType>(
  reader: BodyReader,
  schema: S,
  { status, text }: ResponseBody,
  request: RequestContext,
  requestId: string | undefined,
): BodyReading<z.output<S>> {
  const { redactor } = reader;
  const parsed = parseJson(text);
  if (parsed.kind === "too_deep")
    throw new ResponseTooLargeError(request, { depth: MAX_JSON_DEPTH }, requestId);
  if (parsed.kind === "not_json") {
    const issues = [{ path: "", message: "body is not JSON" }];
    throw new ResponseValidationError({ request, status, rawBody: redactor.text(text), issues, requestId });
  }
  const json = parsed.kind === "json" && redactor.suspects(text) ? redactor.value(parsed.value) : undefined;
  const body = parsed.kind === "json" ? (json ?? parsed.value) : undefined;
  const result = reader.readResponse(schema, body, reader.mode, reader.runner);
  if (!result.success) {
    throw new ResponseValidationError({ request, status, rawBody: body, issues: result.issues, requestId });
  }
  return result;
}
