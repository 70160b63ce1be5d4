/**
 * The gateway vocabulary as plain values, without zod (see `model/payments.ts`).
 *
 * @module
 */
import type { Action, WalletRpcAction } from "../schemas/gateway.js";

/** True when `action` is a `walletRpc` action (narrows the type fully, including `data`). */
export function isWalletRpcAction(action: Action): action is WalletRpcAction {
  return action.type === "walletRpc";
}
