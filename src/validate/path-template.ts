/**
 * Path templates in the interface document's form (`/v1/merchants/{merchantId}/settlements`): the rule a template
 * must follow to stay below the base URL, and the one filler that puts each parameter in as one encoded segment.
 * The built-in operations' rows and custom operations (`client.request`) go through the same two functions.
 *
 * @module
 */
import { pathSegment } from "./ids.js";

/** A parameter segment: `{name}`, the name an identifier. */
const PARAMETER = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** A literal segment: URL path characters (RFC 3986 `pchar`), percent-escapes checked apart. */
const LITERAL = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+$/;

/** Escapes a URL parser would turn back into a path step: `/`, `\` and `.`. */
const STEP_ESCAPE = /%(?:2f|5c|2e)/i;

/**
 * What is wrong with a path template, worded without a subject, or `undefined`. A template is below the base URL:
 * it starts with one `/`, names no scheme or host, holds no query or fragment, no empty, `.` or `..` segment, no
 * backslash and no escaped slash, backslash or dot; a parameter is a whole segment, `{name}`.
 */
export function pathTemplateProblem(path: unknown): string | undefined {
  if (typeof path !== "string" || path === "")
    return "must be a path template such as /v1/merchants/{merchantId}";
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) {
    return "must be a path below the base URL, not an absolute URL: the client's baseUrl is the only origin";
  }
  if (path.startsWith("//")) return "must not start with // (a protocol-relative URL names another host)";
  if (!path.startsWith("/")) return "must start with / (a path below the base URL, such as /v1/merchants)";
  if (path.includes("?") || path.includes("#")) {
    return "must not hold a query string or fragment: give the query as `query`";
  }
  if (path.includes("\\")) return "must not hold a backslash (URL parsers read it as /)";
  for (const segment of path.slice(1).split("/")) {
    const problem = segmentProblem(segment);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function segmentProblem(segment: string): string | undefined {
  if (segment === "") return "must not hold an empty segment (// or a trailing /)";
  if (segment.includes("{") || segment.includes("}")) {
    return PARAMETER.test(segment)
      ? undefined
      : `has a malformed parameter "${segment}": a parameter is a whole segment, {name}`;
  }
  if (STEP_ESCAPE.test(segment)) return "must not hold an escaped slash, backslash or dot (%2F, %5C, %2E)";
  if (segment === "." || segment === "..") return 'must not hold a "." or ".." segment';
  if (!LITERAL.test(segment)) {
    return `has a segment with characters a URL path cannot carry as such: encode them (%XX)`;
  }
  return undefined;
}

/** The parameter names of a template, in order (a well-formed one: see {@link pathTemplateProblem}). */
export function templateParameters(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((match) => match[1]!);
}

/**
 * The path of a template with each `{name}` replaced by `params[name]` as one encoded segment.
 *
 * @throws {InputValidationError} naming the parameter when its value is not an id (empty, `.`, `..`, whitespace).
 */
export function fillPath(template: string, params: Readonly<Record<string, unknown>>): string {
  const parts = partsOf(template);
  let path = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    path += pathSegment(name, params[name]) + (parts[i + 1] as string);
  }
  return path;
}

/**
 * Templates split at their `{name}` parameters (literal, name, literal, …): split once, not on every call. The
 * built-in operations have a dozen; custom ones are the caller's literals, and past {@link MAX_SPLIT_TEMPLATES} a
 * template is split each time rather than kept.
 */
const splitTemplates = new Map<string, readonly string[]>();
const MAX_SPLIT_TEMPLATES = 256;

function partsOf(template: string): readonly string[] {
  let parts = splitTemplates.get(template);
  if (parts === undefined) {
    parts = template.split(/\{(\w+)\}/);
    if (splitTemplates.size < MAX_SPLIT_TEMPLATES) splitTemplates.set(template, parts);
  }
  return parts;
}
