/**
 * The merchant vocabulary as plain values: the documented merchant statuses.
 *
 * @module
 */

/** The known merchant statuses. Others may appear and still parse. */
export const MERCHANT_STATUSES = ["active", "inactive", "suspended"] as const;
