/**
 * Reading a field the service added to a result, one the SDK's types do not declare.
 *
 * @module
 */
import type { JsonValue } from "./json.js";

/**
 * Reads a field the service sent that the SDK's types do not declare (the service may add fields without notice;
 * they are kept on every result as sent). The one way to reach them: a declared field is refused at compile time
 * (read it directly), and the value is typed as JSON, to be checked before use.
 *
 * @example
 * ```ts
 * const merchant = await client.merchants.retrieve("mrch_1");
 * const tier = unknownField(merchant, "tier"); // JsonValue | undefined
 * if (typeof tier === "string") console.log(tier);
 * ```
 */
export function unknownField<T extends object, const Name extends string>(
  result: T,
  name: Name extends keyof T ? never : Name,
): JsonValue | undefined {
  if (!Object.hasOwn(result, name)) return undefined;
  return (result as Record<string, JsonValue | undefined>)[name];
}
