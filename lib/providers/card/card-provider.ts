import { getConfig } from "../../config";
import { outsideTransactions } from "../../provider-operations/transaction-guard";
import type { CardProvider } from "./port";
import { sandboxCardProvider } from "./sandbox-card-provider";

let installed: CardProvider | null = null;

/**
 * The card provider adapter of this environment, wrapped so that a call made inside a
 * database transaction throws (lib/provider-operations/transaction-guard.ts).
 */
export function cardProvider(): CardProvider {
  if (installed) return installed;
  if (!getConfig().isSandbox) throw new Error("No production card provider adapter is installed; CARD_PROVIDER cannot be processed.");
  installed = outsideTransactions("cardProvider", sandboxCardProvider);
  return installed;
}

/** Test hook: replaces the adapter (fault injection); `null` restores the environment's own. */
export function installCardProvider(provider: CardProvider | null): void {
  installed = provider ? outsideTransactions("cardProvider", provider) : null;
}
