/**
 * How an error of the SDK is recognised across copies of the package: an app that loads it both through `import` and
 * `require` gets two copies of each class, and a bundler may minify both. Each class marks its prototype with a
 * registered symbol (`Symbol.for`) of its kind, a fixed string; a subclass's prototype inherits its parents' marks.
 * Never `Function.name`: minifying renames classes.
 *
 * @module
 */

type ErrorClass = abstract new (...args: never) => unknown;

/** The brand every error of the SDK carries: the base class's kind. */
const BRAND = Symbol.for("merchant-payments.error");

/** Where a class keeps the symbol of its kind (see {@link markKinds}). */
const KIND = Symbol.for("merchant-payments.error.kind");

const marked = (value: unknown, mark: symbol): boolean =>
  typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[mark] === true;

/** True for any error of the SDK, whichever copy of the package made it. */
export function hasErrorBrand(value: unknown): boolean {
  return marked(value, BRAND);
}

/**
 * True when `value` carries the kind of `errorClass` (its class or a subclass, from any copy of the package). A class
 * the package did not mark (one of the app's own that extends an SDK error) has no kind: false.
 */
export function isOfKind(errorClass: ErrorClass, value: unknown): boolean {
  const kind = Object.hasOwn(errorClass, KIND)
    ? (errorClass as unknown as Record<symbol, unknown>)[KIND]
    : undefined;
  return typeof kind === "symbol" && marked(value, kind);
}

/**
 * Marks each class with the symbol of its kind, `Symbol.for("merchant-payments.error.<Kind>")` (the base class: the
 * brand), on its prototype, and names that symbol on the class. The kinds are the object's keys: fixed strings,
 * which minifying keeps.
 */
export function markKinds(base: ErrorClass, classes: Record<string, ErrorClass>): void {
  for (const [kind, errorClass] of Object.entries(classes)) {
    const mark = errorClass === base ? BRAND : Symbol.for(`merchant-payments.error.${kind}`);
    Object.defineProperty(errorClass.prototype, mark, { value: true });
    Object.defineProperty(errorClass, KIND, { value: mark });
  }
}
