/**
 * The sentences of `errors.ts` that are worked out from what an error holds: the summary of an input's problems and
 * the words for an error status without a body. A leaf module: it imports nothing.
 *
 * @module
 */

/** One problem of an input as the summary reads it (an `InputIssue`). */
interface Problem {
  readonly field: string;
  readonly message: string;
}

/**
 * The message of an `InputValidationError`: the first problem, then the first "did you mean" when another problem
 * has one (a misspelt field is also a missing one, and the hint is the likeliest fix), then how many more there are.
 */
export function summaryOf(first: Problem, issues: readonly Problem[]): string {
  const hint = first.message.includes("did you mean")
    ? undefined
    : issues.find((issue) => issue.message.includes("did you mean"));
  const rest = issues.length - 1 - (hint ? 1 : 0);
  const more = rest > 0 ? ` (and ${rest} more problem${rest === 1 ? "" : "s"})` : "";
  return `${first.message}${hint ? `; ${hint.message}` : ""}${more}`;
}

/** What an error status without a readable body was. */
export function describeStatus(status: number): string {
  if (status >= 500) return "server error";
  // Following a redirect would carry the API key to wherever it points, so the SDK never does.
  if (status >= 300 && status < 400) return "redirect not followed";
  return "no error body";
}
