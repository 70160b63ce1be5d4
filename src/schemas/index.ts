/**
 * The zod (`zod/mini`) schemas of the service's requests and responses, the types inferred from
 * them, and the helpers that run them.
 *
 * @module
 */
export * from "./checkout.js";
export * from "./common.js";
export * from "./gateway.js";
export * from "./input.js";
export * from "./merchants.js";
export * from "./parse.js";
export * from "./payments.js";
export * from "./response-array.js";
export * from "./settlements.js";
