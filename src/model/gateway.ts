/**
 * The gateway vocabulary as plain predicates: which kind of action the buyer's wallet must perform.
 *
 * @module
 */

/**
 * True when `action` is a `walletRpc` action. On the SDK's `Action` union it narrows to `WalletRpcAction` fully,
 * `data` and the decoded view included.
 */
export function isWalletRpcAction<
  A extends {
    /** The action type. */
    readonly type: string;
  },
>(
  action: A,
): action is Extract<
  A,
  {
    /** `walletRpc`: a wallet RPC call to perform. */
    readonly type: "walletRpc";
  }
> {
  return action.type === "walletRpc";
}
