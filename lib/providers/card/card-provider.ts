import { getConfig } from "../../config";
import { PROVIDER_CALL_TIMEOUT_MS } from "../../provider-operations/provider-operation";
import { outsideTransactions } from "../../provider-operations/transaction-guard";
import { findCardProviderAccount, sandboxCardAccount } from "./card-provider-accounts";
import type { CardProvider } from "./port";
import { sandboxCardProvider } from "./sandbox-card-provider";
import { stripeCardProvider, stripeEndpointOf } from "./stripe-card-provider";

let installed: CardProvider | null = null;

/**
 * The card provider adapter of this environment, wrapped so that a call made inside a
 * database transaction throws (lib/provider-operations/transaction-guard.ts). Production runs
 * the Stripe adapter with each service's own keys (merchant CLI `card-keys`); the sandbox runs
 * it too when CARD_PROVIDER_API_URL points at a Stripe simulator, with keys set by the CLI or
 * else derived for the simulator, and otherwise its in-database simulation.
 */
export function cardProvider(): CardProvider {
  if (installed) return installed;
  const config = getConfig();
  if (!config.isSandbox || config.CARD_PROVIDER_API_URL) {
    installed = outsideTransactions(
      "cardProvider",
      stripeCardProvider({
        endpoint: stripeEndpointOf(config.CARD_PROVIDER_API_URL),
        timeoutMs: PROVIDER_CALL_TIMEOUT_MS,
        accountOf: async (db, account) =>
          (await findCardProviderAccount(db, account)) ?? (config.isSandbox ? sandboxCardAccount(db, account.serviceId) : null),
        browserConfirmation: config.isSandbox ? sandboxCardProvider.browserConfirmation : undefined,
      }),
    );
  } else {
    installed = outsideTransactions("cardProvider", sandboxCardProvider);
  }
  return installed;
}

/** Test hook: replaces the adapter (fault injection); `null` restores the environment's own. */
export function installCardProvider(provider: CardProvider | null): void {
  installed = provider ? outsideTransactions("cardProvider", provider) : null;
}
