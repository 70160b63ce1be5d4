/**
 * The one `uuid` function the SDK uses (v4), re-exported alone so that a bundle keeps only it: `idempotency.ts`
 * imports this module, not `uuid` itself.
 *
 * @module
 */
export { v4 } from "uuid";
