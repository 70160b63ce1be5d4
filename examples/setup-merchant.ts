/**
 * Idempotent merchant setup: creates a merchant and registers its crypto settlements, and can be re-run at will
 * (in CI, from a deploy script, after a crash half-way): it never creates a second merchant, and a settlement whose
 * destination changed in the configuration is updated in place instead of failing.
 *
 * - The merchant is created with an `Idempotency-Key` that is remembered: read from a local JSON state file when
 *   one is given (the key is written *before* the request, so a crash after the service acted reuses it), or else
 *   derived from the merchant's name and the key's mode. A replay returns the original merchant.
 * - Each settlement is registered; when the service answers `settlement_asset_conflict` (the asset is already
 *   registered for the merchant) its destination is updated with `updateCrypto` if it differs.
 *
 * Run it against the mock with `npm run example:setup-merchant` from the repository root. Against a service (test mode
 * first; test data does not carry over to live mode, so run it again with a live key):
 *
 * ```sh
 * MERCHANT_PAYMENTS_API_KEY=… MERCHANT_PAYMENTS_BASE_URL=… \
 * MERCHANT_NAME="Acme Store" MERCHANT_EMAIL=billing@acme.example \
 * SETTLEMENTS='[{"asset":"eip155:84532/erc20:0x036CbD53842c5426634e7929541eC2318f3dCF7e","destination":"eip155:84532:0x52908400098527886E0F7030069857D2E4169EE7"}]' \
 * npm run example:setup-merchant        # the state file: STATE_FILE, default .data/merchant-setup.json
 * ```
 *
 * @module
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import {
  APIError,
  ConflictError,
  type CryptoSettlementInput,
  MerchantPaymentsClient,
  type SettlementsList,
} from "merchant-payments";

/** What the merchant should look like. */
export interface MerchantConfig {
  /** Display name, shown to buyers. Also names the merchant in the state file. */
  name: string;
  /** Contact e-mail. */
  email: string;
  /** The crypto settlements the merchant should have: one destination per asset. */
  settlements: CryptoSettlementInput[];
  /**
   * A JSON file remembering the idempotency key and the merchant id between runs (created if missing). Without it,
   * the key is derived from the name and mode, which relies on the service keeping idempotency records.
   */
  stateFile?: string;
}

/** What a settlement needed. */
export type SettlementAction = "created" | "updated" | "unchanged";

/** The result of {@link setupMerchant}. */
export interface SetupResult {
  merchantId: string;
  /** Each configured settlement, with its id and what was done. */
  settlements: Array<{ id: string; asset: string; destination: string; action: SettlementAction }>;
}

/** What the state file holds per merchant, under the key `<mode>:<name>`. */
interface MerchantState {
  idempotencyKey: string;
  merchantId?: string;
}

/** Creates the merchant if needed and brings its crypto settlements to `config.settlements`. Safe to re-run. */
export async function setupMerchant(
  client: MerchantPaymentsClient,
  config: MerchantConfig,
): Promise<SetupResult> {
  const stateKey = `${client.mode}:${config.name}`;
  const file = config.stateFile;
  const all = file ? await readState(file) : {};
  const state: MerchantState = all[stateKey] ?? {
    idempotencyKey: file ? randomUUID() : stableUuid(`merchant-payments:merchant:${stateKey}`),
  };
  const save = async () => {
    if (file) await writeState(file, { ...all, [stateKey]: state });
  };

  let merchantId = state.merchantId;
  if (merchantId) {
    await client.merchants.retrieve(merchantId); // still there, and in this mode (NotFoundError otherwise)
  } else {
    await save(); // remember the key before the request: a crash after the service acted must reuse it
    try {
      const merchant = await client.merchants.create(
        { name: config.name, email: config.email },
        { idempotencyKey: state.idempotencyKey },
      );
      merchantId = merchant.id;
    } catch (error) {
      if (error instanceof APIError && error.code === "idempotency_key_reused") {
        throw new Error(
          `A merchant named "${config.name}" was already created with other details (e-mail). The service has no ` +
            "merchant update: keep the original details, or give the merchant a new name.",
          { cause: error },
        );
      }
      throw error;
    }
    state.merchantId = merchantId;
    await save();
  }

  const settlements: SetupResult["settlements"] = [];
  for (const wanted of config.settlements) {
    settlements.push(await ensureSettlement(client, merchantId, wanted));
  }
  return { merchantId, settlements };
}

/** Registers one settlement; if its asset is already registered, points it at the wanted destination. */
async function ensureSettlement(
  client: MerchantPaymentsClient,
  merchantId: string,
  wanted: CryptoSettlementInput,
): Promise<SetupResult["settlements"][number]> {
  // One asset per call: registration is atomic, so one conflicting asset would refuse the others too.
  try {
    await client.settlements.createCrypto(merchantId, [wanted]);
    const created = findByAsset(await client.settlements.list(merchantId), wanted.asset);
    if (!created) throw new Error(`settlement for ${wanted.asset} missing right after registering it`);
    return { id: created.id, asset: created.asset, destination: created.destination, action: "created" };
  } catch (error) {
    if (!(error instanceof ConflictError && error.code === "settlement_asset_conflict")) throw error;
  }
  // Already registered (an earlier run, or someone else): update the destination instead.
  const existing = findByAsset(await client.settlements.list(merchantId), wanted.asset);
  if (!existing) throw new Error(`the service reports ${wanted.asset} as registered but does not list it`);
  if (sameCaip(existing.destination, wanted.destination)) {
    return { id: existing.id, asset: existing.asset, destination: existing.destination, action: "unchanged" };
  }
  await client.settlements.updateCrypto(merchantId, existing.id, { destination: wanted.destination });
  return { id: existing.id, asset: existing.asset, destination: wanted.destination, action: "updated" };
}

function findByAsset(list: SettlementsList, asset: string) {
  return list.crypto.find((settlement) => sameCaip(settlement.asset, asset));
}

/** CAIP ids compare exactly, except EVM (`eip155:`) hex addresses, which are case-insensitive. */
function sameCaip(a: string, b: string): boolean {
  return a.startsWith("eip155:") ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** A UUID (version 5 layout) derived from `text`: the same text always gives the same key. */
export function stableUuid(text: string): string {
  const bytes = createHash("sha1").update(text).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function readState(file: string): Promise<Record<string, MerchantState>> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as Record<string, MerchantState>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
}

/** Writes the state atomically (a crash leaves the old file or the new one, never half of one). */
async function writeState(file: string, state: Record<string, MerchantState>): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

/** Reads the configuration from the environment, sets the merchant up and prints the result. */
export async function main(): Promise<void> {
  const client = new MerchantPaymentsClient(); // MERCHANT_PAYMENTS_API_KEY, MERCHANT_PAYMENTS_BASE_URL
  const { MERCHANT_NAME: name, MERCHANT_EMAIL: email } = process.env;
  if (!name || !email) {
    throw new Error(
      "Set MERCHANT_NAME, MERCHANT_EMAIL and SETTLEMENTS (a JSON array of { asset, destination })",
    );
  }
  const result = await setupMerchant(client, {
    name,
    email,
    settlements: JSON.parse(process.env.SETTLEMENTS ?? "[]") as CryptoSettlementInput[],
    // In the examples' data folder, which git ignores: the state file holds an idempotency key, not a thing to commit.
    stateFile: process.env.STATE_FILE ?? ".data/merchant-setup.json",
  });
  console.log(JSON.stringify({ mode: client.mode, ...result }, null, 2));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
