/**
 * Response arrays: {@link responseArray} reads an array of items a chunk at a time and groups the items' issues by field
 * (one issue, with a count, for 100,000 items missing `id`), within a drift budget: past {@link MAX_DRIFT_ITEMS}
 * deviating items a reading only checks what fails it in every mode ({@link ItemCheck}) and counts the rest as not
 * examined. `readResponse` (`parse.ts`) opens each reading's budget with {@link withDriftBudget}.
 *
 * @module
 */
import * as z from "zod/mini";
import { safeParse } from "zod/mini";
import { describeType, isRecord } from "../validate/issues.js";
import { article, fieldPath, type GroupedIssue, PARSE_CONTEXT, type PathKey } from "./issues.js";
import { readerOf } from "./compiled-reader.js";
import { rememberArrayItem } from "./strictness.js";

/**
 * What a reading still checks on an array item past the drift budget: the problems that fail a reading in every mode
 * (an item that is not an object, a `decisive` field of the item, `parse.ts`), as the field (`[]` for the item itself) and
 * the type expected there; `undefined` when there is none. It must read no more than it checks.
 */
export type ItemCheck = (item: unknown) => { path: PathKey[]; expected: string } | undefined;

/** Items of any kind (strings, say): past the drift budget there is nothing left to check. */
const anyItem: ItemCheck = () => undefined;

/** An item that must be an object (a settlement, an action). */
export const objectItem: ItemCheck = (item) =>
  isRecord(item) ? undefined : { path: [], expected: "object" };

/** An object item whose `id` is decisive (the merchant list's `data.*.id`). */
export const objectItemWithId: ItemCheck = (item) =>
  !isRecord(item)
    ? { path: [], expected: "object" }
    : typeof item.id === "string"
      ? undefined
      : { path: ["id"], expected: "string" };

/**
 * A response array. Each item is read on its own and the items' issues are grouped by field (one issue, with a
 * count, for 100,000 items missing `id`), so a wide answer costs one issue per field instead of one per item: zod
 * would otherwise hold every item's issues and copy them into each enclosing object with a spread, which overflows
 * the stack past about 100,000 of them. Once {@link MAX_DRIFT_ITEMS} items of a reading have been examined in a chunk
 * that deviates, the rest are only checked by `tail` (what fails a reading in every mode) and counted as not
 * examined: describing 300,000 deviating items cost 1.2 s of CPU and 176 MB of heap for one drift entry.
 */
export function responseArray<T>(
  item: z.ZodMiniType<T, unknown>,
  tail: ItemCheck = anyItem,
): z.ZodMiniType<T[], unknown> {
  const chunk = z.array(item);
  const array = z.pipe(
    z.array(z.unknown()),
    z.transform((items: unknown[], payload) => readItems(chunk, tail, items, payload.issues)),
  );
  return rememberArrayItem(array, item) as unknown as z.ZodMiniType<T[], unknown>;
}

/** Items read per parse: few enough to bound the issues held at once, many enough to make few zod errors. */
const ITEMS_PER_PARSE = 1000;

/**
 * The most items of one reading examined for deviations in chunks that deviate, all arrays together (nested ones
 * too): past it, items are checked by their array's {@link ItemCheck} only.
 */
export const MAX_DRIFT_ITEMS = 1000;

/** What is left of the current reading's budget; readings are synchronous, so one at a time. */
let driftBudget: { left: number } | undefined;

/** Runs one reading with a whole drift budget (nested readings each get their own). */
export function withDriftBudget<T>(read: () => T): T {
  const outer = driftBudget;
  driftBudget = { left: MAX_DRIFT_ITEMS };
  try {
    return read();
  } finally {
    driftBudget = outer;
  }
}

type Groups = Map<string, GroupedIssue & { occurrences: number }>;

/** Reads the items a chunk at a time, and adds their issues to `issues` once per field path and message. */
function readItems<T>(
  chunk: z.ZodMiniType<T[], unknown>,
  tail: ItemCheck,
  items: unknown[],
  issues: unknown[],
): T[] {
  const out: T[] = [];
  const groups: Groups = new Map();
  const budget = driftBudget ?? { left: MAX_DRIFT_ITEMS };
  let start = 0;
  for (; start < items.length && budget.left > 0; start += ITEMS_PER_PARSE) {
    const part = items.slice(start, start + ITEMS_PER_PARSE);
    const parsed = safeParse(readerOf(chunk), part, PARSE_CONTEXT);
    if (parsed.success) {
      for (const value of parsed.data) out.push(value);
      continue;
    }
    budget.left -= part.length;
    for (const issue of parsed.error.issues as GroupedIssue[]) {
      const [index, ...rest] = issue.path;
      group(groups, { ...issue, path: [start + Number(index), ...rest] }, issue.occurrences ?? 1);
    }
  }
  if (start < items.length) checkTail(tail, items, start, groups);
  for (const issue of groups.values()) issues.push(issue);
  return out;
}

function group(groups: Groups, issue: GroupedIssue, count: number): void {
  const key = `${issue.code}\u0000${fieldPath(issue.path)}\u0000${issue.message}`;
  const seen = groups.get(key);
  if (seen) seen.occurrences += count;
  else groups.set(key, { ...issue, occurrences: count });
}

/** The items past the budget: checked by `tail` only, and one issue that counts them as not examined. */
function checkTail(tail: ItemCheck, items: unknown[], start: number, groups: Groups): void {
  for (let index = start; index < items.length; index++) {
    const value = items[index];
    const problem = tail(value);
    if (problem === undefined) continue;
    const received =
      problem.path.length === 0 ? value : (value as Record<PropertyKey, unknown>)[problem.path[0]!];
    const message =
      received === undefined
        ? "is required"
        : `must be ${article(problem.expected)}, got ${describeType(received)}`;
    const issue = {
      code: "invalid_type",
      expected: problem.expected,
      path: [index, ...problem.path],
      message,
    };
    group(groups, issue as GroupedIssue, 1);
  }
  const notExamined = { code: "custom", path: [start], message: NOT_EXAMINED } as GroupedIssue;
  group(groups, notExamined, items.length - start);
}

/** The message of the issue that counts the items not examined (worded by `toDrift` and `toResponseIssue`, `parse.ts`). */
const NOT_EXAMINED = "\u0000not examined";

/** Whether a zod issue only counts the items that drift detection's budget left unexamined (no deviation of its own). */
export function isNotExaminedIssue(issue: { readonly message: string }): boolean {
  return issue.message === NOT_EXAMINED;
}
