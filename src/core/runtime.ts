/**
 * What the client reads from the runtime it starts in: environment variables (where there are any), the Node
 * version, whether it runs in a browser page.
 *
 * @module
 */
import { ConfigurationError } from "../errors.js";

/** An environment variable's value; `undefined` when unset, empty, or unreadable in this runtime. */
export function readEnv(name: string): string | undefined {
  // `process` does not exist everywhere (edge runtimes, browsers), and Deno without `--allow-env` throws on a read:
  // the env fallback is then simply absent, and an option given in code still works.
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    const value = env?.[name];
    return value === "" || typeof value !== "string" ? undefined : value;
  } catch {
    return undefined;
  }
}

/** The subjects already warned about: each warning is written once per process. */
const warned = new Set<string>();

/**
 * Writes a warning about `subject` once per process: through `process.emitWarning` where there is one (Node, Bun,
 * Deno), else `console.warn`. For what is wrong with the environment, before any logger is configured.
 */
export function warnOnce(subject: string, message: string): void {
  if (warned.has(subject)) return;
  warned.add(subject);
  const text = `merchant-payments: ${message}`;
  const g = globalThis as { process?: { emitWarning?: (warning: string, type?: string) => void } };
  if (typeof g.process?.emitWarning === "function") g.process.emitWarning(text, "MerchantPaymentsWarning");
  else console.warn(text);
}

/**
 * Node before 22.12 cannot load ky 2 and uuid 14 (ES modules only, `require()` of one): say so here, rather than
 * let the first request fail deep inside a dependency. Bun and Deno report a Node version of their own: not checked.
 */
export function refuseUnsupportedNode(): void {
  const g = globalThis as {
    process?: { release?: { name?: string }; versions?: { node?: string } };
    Bun?: unknown;
  };
  const version = g.process?.versions?.node;
  if (g.process?.release?.name !== "node" || g.Bun !== undefined || "Deno" in globalThis || !version) return;
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 12)) {
    throw new ConfigurationError(
      `merchant-payments needs Node 22.12 or later; this is Node ${version} (Node 20 reached its end of life on 2026-04-30).`,
    );
  }
}

export function refuseBrowser(allowed: boolean): void {
  const g = globalThis as { window?: unknown; document?: unknown };
  if (!allowed && typeof g.window !== "undefined" && typeof g.document !== "undefined") {
    throw new ConfigurationError(
      "MerchantPaymentsClient is for servers: a browser page would expose the API key (see dangerouslyAllowBrowser).",
    );
  }
}
