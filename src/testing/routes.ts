/**
 * Routes as data: a route is a method, a path pattern (`/v1/merchants/:merchantId`, MSW's syntax) and a
 * handler. The dispatcher finds the route of a request here, once; the MSW entry builds one handler per route.
 *
 * @module
 */

/** A route of one of the mock's tables. */
export interface Route<Context> {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** Path pattern: literal segments and `:name` parameters, e.g. `/v1/payments/:paymentId/status`. */
  readonly path: string;
  /** Answers the request; `params` holds the decoded `:name` segments. */
  readonly handle: (context: Context) => unknown;
}

/** The route a request matched and its decoded parameters. */
export interface RouteMatch<R> {
  /** The matched route. */
  route: R;
  /** Decoded `:name` segments. */
  params: Record<string, string>;
}

/**
 * Splits a path into decoded segments, or returns null when a segment is not valid percent-encoding
 * (such a path matches no route).
 */
export function pathSegments(pathname: string): string[] | null {
  try {
    return pathname
      .split("/")
      .slice(1)
      .map((segment) => decodeURIComponent(segment));
  } catch {
    return null;
  }
}

/** Matches decoded segments against a pattern; the parameters, or null. A parameter is never empty. */
export function matchPattern(pattern: string, segments: readonly string[]): Record<string, string> | null {
  const parts = pattern.split("/").slice(1);
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const segment = segments[i]!;
    if (part.startsWith(":")) {
      if (segment === "") return null;
      params[part.slice(1)] = segment;
    } else if (part !== segment) {
      return null;
    }
  }
  return params;
}

/**
 * Finds the route of `method` + `pathname` in `routes` (`pathname` relative to the table's root):
 * the match, `"method"` when the path exists under another method (405), or null (404).
 */
export function findRoute<R extends { readonly method: string; readonly path: string }>(
  routes: readonly R[],
  method: string,
  pathname: string,
): RouteMatch<R> | "method" | null {
  const segments = pathSegments(pathname);
  if (segments === null) return null;
  let pathExists = false;
  for (const route of routes) {
    const params = matchPattern(route.path, segments);
    if (params === null) continue;
    if (route.method === method) return { route, params };
    pathExists = true;
  }
  return pathExists ? "method" : null;
}
