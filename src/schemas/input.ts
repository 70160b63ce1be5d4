/**
 * Checking a method's arguments before anything is sent: {@link parseInput} runs an input schema and throws
 * {@link InputValidationError} with one issue per offending field.
 *
 * @module
 */
import type * as z from "zod/mini";
import { safeParse } from "zod/mini";
import { InputValidationError } from "../errors.js";
import { inputIssue } from "../validate/issues.js";
import { readerOf } from "./compiled-reader.js";
import { dotted, flatten, PARSE_CONTEXT } from "./issues.js";

/**
 * Validates an argument before anything is sent and returns the parsed value (with any trimming or
 * defaults applied).
 *
 * @param schema An input schema.
 * @param value The caller's argument.
 * @param root Name of the argument, put in front of every field path (for example `settlements`
 *   gives `settlements.0.destination`). When omitted, paths start at the argument's fields and an
 *   argument that is wrong as a whole is reported as `input`.
 * @throws {InputValidationError} With one issue per offending field; `field` is the dotted path.
 */
export function parseInput<S extends z.core.$ZodType>(schema: S, value: unknown, root?: string): z.output<S> {
  // The SDK's input schemas run as zod's compiled code once used twice (`compiled-reader.ts`): an input it rejects
  // goes on to the interpreter, so the issues are worded as before.
  const parsed = safeParse(readerOf(schema), value, PARSE_CONTEXT);
  if (parsed.success) return parsed.data as z.output<S>;
  const prefix = root === undefined ? [] : [root];
  const issues = flatten(parsed.error.issues, prefix).map((issue) =>
    inputIssue(issue.path.length === 0 ? "input" : dotted(issue.path), issue.message),
  );
  throw new InputValidationError(issues);
}
