/**
 * Gateway (wallet-facing) schemas: the action fetch input and the actions it returns. A `walletRpc`
 * action whose second param is EIP-712 typed data also carries a decoded view with the hex
 * quantities as `bigint`; other action types are passed through untouched.
 *
 * @module
 */
import * as z from "zod/mini";
import { safeParse } from "zod/mini";
import { isWalletRpcAction } from "../model/gateway.js";
import { isRecord } from "../validate/issues.js";
import { parseJson } from "../validate/json.js";
import { type JsonObject, type JsonValue, nonEmptyStringSchema, responseObject } from "./common.js";
import { parseInput } from "./input.js";
import { PARSE_CONTEXT } from "./issues.js";
import { finishing } from "./parse.js";
import { objectItem, responseArray } from "./response-array.js";

export { isWalletRpcAction } from "../model/gateway.js";

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

const fetchActionInputObject = z.strictObject({
  /** Identifier of the payment option the buyer chose. */
  optionId: z.optional(nonEmptyStringSchema),
  /** Opaque data for the service (its meaning is not documented). */
  data: z.optional(nonEmptyStringSchema),
});

/** What `gateway.fetchAction` accepts: `{ optionId?, data? }`. */
export interface FetchActionInput extends z.input<typeof fetchActionInputObject> {}

/** Input of `gateway.fetchAction`: `optionId` and `data`, each a non-empty string when given. */
export const fetchActionInputSchema: z.ZodMiniType<FetchActionInput, FetchActionInput> =
  fetchActionInputObject;

/** The request body of `POST /v1/gateway/payment/{id}/fetch`. */
export interface FetchActionBody {
  /** Identifier of the chosen payment option, when given. */
  optionId?: string;
  /** Opaque data, when given. */
  data?: string;
}

/**
 * Validates a `gateway.fetchAction` input and maps it to the request body (fields left out when not given).
 *
 * @throws {InputValidationError} When the input is invalid (nothing should be sent).
 */
export function toFetchActionBody(input: FetchActionInput = {}): FetchActionBody {
  const parsed = parseInput(fetchActionInputSchema, input);
  const body: FetchActionBody = {};
  if (parsed.optionId !== undefined) body.optionId = parsed.optionId;
  if (parsed.data !== undefined) body.data = parsed.data;
  return body;
}

// ---------------------------------------------------------------------------------------------
// Typed data (EIP-712) decoding
// ---------------------------------------------------------------------------------------------

const typedDataDomainObject = responseObject({
  /** Name of the signing domain (the token's name). */
  name: z.optional(z.string()),
  /** Version of the signing domain. */
  version: z.optional(z.string()),
  /** EIP-155 chain id, as a number, decimal string or hex quantity. */
  chainId: z.optional(z.custom<number | string>((id) => typeof id === "number" || typeof id === "string")),
  /** The token contract that verifies the signature. */
  verifyingContract: z.optional(z.string()),
});

/** The EIP-712 domain of typed data: `name`, `version`, `chainId`, `verifyingContract` (each when present). */
export interface TypedDataDomain extends z.output<typeof typedDataDomainObject> {}

/** The EIP-712 domain. Unknown fields are kept. */
export const typedDataDomainSchema: z.ZodMiniType<TypedDataDomain> = typedDataDomainObject;

const typedDataFieldObject = responseObject({
  /** The field's name, e.g. `validBefore`. */
  name: z.string(),
  /** The field's EIP-712 type, e.g. `uint256` or `address`. */
  type: z.string(),
});

/** One field of an EIP-712 struct type: `{ name, type }`. */
export interface TypedDataField extends z.output<typeof typedDataFieldObject> {}

/** One field of an EIP-712 struct type. */
export const typedDataFieldSchema: z.ZodMiniType<TypedDataField> = typedDataFieldObject;

const structFieldsSchema = z.array(typedDataFieldSchema);

/** True for EIP-712 `types`: an object whose every value is a list of `{ name, type }` fields. */
function isStructTypes(types: unknown): boolean {
  return (
    isRecord(types) && Object.values(types).every((fields) => safeParse(structFieldsSchema, fields).success)
  );
}

const typedDataObject = responseObject({
  /** The signing domain. */
  domain: typedDataDomainSchema,
  /** The struct types, by name. */
  types: z.custom<Record<string, TypedDataField[]>>(isStructTypes),
  /** The name of the struct being signed. */
  primaryType: z.string(),
  /** The struct being signed; for a receive-with-authorization: `from`, `to`, `value`, `validAfter`, `validBefore`, `nonce`. */
  message: z.custom<JsonObject>(isRecord),
});

/** Decoded EIP-712 typed data: `domain`, `types`, `primaryType` and the `message` being signed. */
export interface TypedData extends z.output<typeof typedDataObject> {}

/** EIP-712 typed data as carried (JSON-encoded) in `params[1]` of `eth_signTypedData_v4`. */
export const typedDataSchema: z.ZodMiniType<TypedData> = typedDataObject;

/** The numeric fields of a receive-with-authorization message (and the domain's chain id), as bigint. */
export interface TypedDataQuantities {
  /** Amount to transfer, in the token's smallest unit. */
  value: bigint;
  /** Unix time (seconds) after which the authorization is valid. */
  validAfter: bigint;
  /** Unix time (seconds) before which the authorization is valid. */
  validBefore: bigint;
  /** The authorization nonce (32 bytes). */
  nonce: bigint;
  /** `domain.chainId`, when present and numeric. */
  chainId?: bigint;
}

/** The largest EIP-712 `uint256` (a `bytes32` nonce read as a number fits too): 2²⁵⁶ − 1. */
const MAX_UINT256 = (1n << 256n) - 1n;

/** The most digits of a `uint256`, leading zeros aside: 64 in hex, 78 in decimal (2²⁵⁶ − 1 has 78). */
const MAX_DIGITS = { hex: 64, decimal: 78 } as const;

/**
 * Reads a `uint256` quantity: a `0x` hex string, a decimal string or a non-negative safe integer.
 *
 * @returns The value, or `undefined` when `value` is not a quantity or is past 2²⁵⁶ − 1.
 */
export function toQuantity(value: unknown): bigint | undefined {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  }
  if (typeof value !== "string") return undefined;
  const hex = /^0[xX]([0-9a-fA-F]+)$/.exec(value)?.[1];
  if (hex === undefined && !/^[0-9]+$/.test(value)) return undefined;
  // Counted before BigInt reads them: a 1 MiB answer holds a million digits, which BigInt takes a quarter of a second
  // to read, the event loop held all the while.
  const digits = (hex ?? value).replace(/^0+/, "") || "0";
  if (digits.length > (hex === undefined ? MAX_DIGITS.decimal : MAX_DIGITS.hex)) return undefined;
  const quantity = BigInt(hex === undefined ? digits : `0x${digits}`);
  return quantity <= MAX_UINT256 ? quantity : undefined;
}

/**
 * Parses `params[1]` of an `eth_signTypedData_v4` call.
 *
 * @returns The typed data, or `null` when the string is not JSON EIP-712 typed data.
 */
export function decodeTypedData(json: unknown): TypedData | null {
  if (typeof json !== "string") return null;
  // Read as an answer is: nested deeper than an answer may be, it is refused before it is parsed.
  const raw = parseJson(json);
  if (raw.kind !== "json") return null;
  const parsed = safeParse(typedDataSchema, raw.value);
  return parsed.success ? parsed.data : null;
}

/**
 * Extracts the receive-with-authorization quantities of decoded typed data.
 *
 * @returns The quantities, or `null` when one of `value`, `validAfter`, `validBefore`, `nonce` is
 *   missing or not a `uint256` quantity.
 */
export function typedDataQuantities(typedData: TypedData): TypedDataQuantities | null {
  const { message, domain } = typedData;
  const value = toQuantity(message.value);
  const validAfter = toQuantity(message.validAfter);
  const validBefore = toQuantity(message.validBefore);
  const nonce = toQuantity(message.nonce);
  if (value === undefined || validAfter === undefined || validBefore === undefined || nonce === undefined) {
    return null;
  }
  const quantities: TypedDataQuantities = { value, validAfter, validBefore, nonce };
  const chainId = toQuantity(domain.chainId);
  if (chainId !== undefined) quantities.chainId = chainId;
  // JSON has no bigint: stringifying the quantities gives their decimal strings instead of throwing.
  return Object.defineProperty(quantities, "toJSON", { value: quantitiesToJson });
}

function quantitiesToJson(this: TypedDataQuantities): Record<string, string> {
  const json: Record<string, string> = {};
  for (const [name, quantity] of Object.entries(this)) json[name] = String(quantity);
  return json;
}

// ---------------------------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------------------------

const walletRpcDataObject = responseObject({
  /** CAIP-2 chain id of the call. */
  chain_id: z.string(),
  /** Wallet RPC method, for example `eth_signTypedData_v4`. */
  method: z.string(),
  /** The call's params; for `eth_signTypedData_v4`: the signer address, then the JSON typed data. */
  params: responseArray(z.string()),
});

/** `data` of a `walletRpc` action: the call to make, `{ chain_id, method, params }`. */
export interface WalletRpcData extends z.output<typeof walletRpcDataObject> {}

/** `data` of a `walletRpc` action. Unknown fields are kept. */
export const walletRpcDataSchema: z.ZodMiniType<WalletRpcData> = walletRpcDataObject;

const walletRpcActionRawObject = responseObject({
  /** Always `"walletRpc"`: a wallet RPC call to perform. */
  type: z.custom<"walletRpc">((type) => type === "walletRpc", { error: 'must be "walletRpc"' }),
  /** The call to make: `chain_id`, `method` and `params`, as sent by the service. */
  data: walletRpcDataSchema,
});

/** A `walletRpc` action as the service sends it: `{ type: "walletRpc", data: { chain_id, method, params } }`. */
export interface WalletRpcActionRaw extends z.output<typeof walletRpcActionRawObject> {}

/** The decoded view the SDK adds to a `walletRpc` action. */
export interface WalletRpcDecodedView {
  /** `params[0]`: the account that signs; null when absent. */
  signer: string | null;
  /**
   * `params[1]` parsed as EIP-712 typed data; null when it is not JSON typed data or nests deeper than an answer may.
   */
  typedData: TypedData | null;
  /** The receive-with-authorization quantities as bigint; null when the message lacks one or one is not a uint256. */
  quantities: TypedDataQuantities | null;
}

/**
 * A `walletRpc` action, with a decoded view added: `signer` (`params[0]`), `typedData` (parsed `params[1]`, or null
 * when it is not JSON typed data) and `quantities` (bigint values of the message, or null). The view is not
 * enumerable: `JSON.stringify(action)` (Express's `res.json`) gives the action exactly as the service sent it, ready
 * to relay to the wallet.
 */
export interface WalletRpcAction extends WalletRpcActionRaw, WalletRpcDecodedView {}

/** Adds the decoded view to a raw `walletRpc` action, as properties that JSON and spreading leave out. */
function withDecodedView(action: WalletRpcActionRaw): WalletRpcAction {
  // Read defensively: in tolerant mode a param may have arrived with another type.
  const params: readonly unknown[] = Array.isArray(action.data.params) ? action.data.params : [];
  const signer = typeof params[0] === "string" ? params[0] : null;
  const typedData = decodeTypedData(params[1]);
  const quantities = typedData ? typedDataQuantities(typedData) : null;
  return Object.defineProperties(
    { ...action },
    {
      signer: { value: signer, enumerable: false },
      typedData: { value: typedData, enumerable: false },
      quantities: { value: quantities, enumerable: false },
    },
  ) as WalletRpcAction;
}

/**
 * An action of a type this SDK does not know (the service may add types), passed through as received; read its
 * other fields with `unknownField`. The decoded-view fields of {@link WalletRpcAction} are typed as absent so that
 * `action.typedData` reads cleanly on any action.
 */
export interface UnknownAction {
  /** The action type, as sent by the service. */
  type: string;
  /** The action's data, as sent, when it has some. */
  data?: JsonValue;
  /** Not present on other action types. */
  signer?: undefined;
  /** Not present on other action types. */
  typedData?: undefined;
  /** Not present on other action types. */
  quantities?: undefined;
}

/** An action the buyer's wallet must perform: a {@link WalletRpcAction} or an {@link UnknownAction}. */
export type Action = WalletRpcAction | UnknownAction;

/** An action as the service sends it: a raw `walletRpc` action, or any other `{ type, ... }`, kept as received. */
export type RawAction = WalletRpcActionRaw | UnknownAction;

/**
 * One action, as sent: an object with a string `type`; a `walletRpc` action must also match its documented shape.
 * {@link decodeActions} then adds the decoded view.
 */
export const actionSchema: z.ZodMiniType<RawAction> = responseObject({
  /** The action type: `walletRpc`, or a type added later. */
  type: z.string(),
}).check(
  z.check((payload) => {
    if (payload.value.type !== "walletRpc") return;
    const parsed = safeParse(walletRpcActionRawObject, payload.value, PARSE_CONTEXT);
    for (const issue of parsed.error?.issues ?? [])
      payload.issues.push({ ...issue, input: undefined, continue: true });
  }),
) as z.ZodMiniType<RawAction>;

const fetchActionAnswerObject = responseObject({
  /** The actions the buyer's wallet must perform to pay. */
  actions: responseArray(actionSchema, objectItem),
});

/** The body of `POST /v1/gateway/payment/{id}/fetch` as sent, before {@link decodeActions}. */
export interface RawFetchActionResponse extends z.output<typeof fetchActionAnswerObject> {}

/** Body of `POST /v1/gateway/payment/{id}/fetch`: `{ actions }`. Unknown fields are kept. */
export const fetchActionResponseSchema: z.ZodMiniType<RawFetchActionResponse> = fetchActionAnswerObject;

/** The actions built for a payment (`gateway.fetchAction`), each `walletRpc` action with its decoded view. */
export interface FetchActionResponse {
  /** The actions the buyer's wallet must perform to pay. */
  actions: Action[];
}

/** Adds the decoded view to each `walletRpc` action of a parsed `fetchAction` body; other actions stay as sent. */
export function decodeActions(body: RawFetchActionResponse): FetchActionResponse {
  const actions = body.actions.map((action) =>
    isWalletRpcAction(action as Action)
      ? withDecodedView(action as WalletRpcActionRaw)
      : (action as UnknownAction),
  );
  return { ...body, actions };
}

/** Body of `POST /v1/gateway/payment/{id}/fetch`, read into a {@link FetchActionResponse} by {@link decodeActions}. */
export const fetchActionSchema = finishing(fetchActionResponseSchema, decodeActions);
