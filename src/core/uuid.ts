/**
 * The one uuid function the SDK uses, as the module `idempotency.ts` loads with the first keyed call: importing
 * `uuid` itself dynamically would keep all of its exports (every UUID version) in an app's bundle.
 *
 * @module
 */
export { v4 } from "uuid";
