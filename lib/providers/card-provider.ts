import Stripe from "stripe";
import { getConfig } from "../config";
import { outsideTransactions } from "../db/transaction-guard";
import { everyCardProviderAccount, findCardProviderAccount, sandboxCardAccount } from "./card/card-provider-accounts";
import type { CardProvider } from "./card/port";
import { simulatorMount } from "./simulator-mount";
import { stripeCardProvider, stripeEndpointOf } from "./card/stripe-card-provider";

let installed: CardProvider | null = null;

/**
 * The card provider adapter of this environment, wrapped so that a call made inside a
 * database transaction throws (lib/db/transaction-guard.ts). Both environments
 * run the Stripe adapter on the `stripe` SDK: production against Stripe with each service's own
 * keys (merchant CLI `card-keys`); the sandbox against its Stripe simulator, served over HTTP at
 * CARD_PROVIDER_API_URL or else answered in this process (the SDK's fetch client handed to the
 * simulator), with keys set by the CLI or else derived for the simulator. The sandbox's page
 * confirms through its Stripe.js stand-in. The simulator is the one this process mounted
 * (lib/providers/simulator-mount.ts), looked up at each call, so the adapter may be built first.
 */
export function cardProvider(): CardProvider {
  if (installed) return installed;
  const config = getConfig();
  installed = outsideTransactions(
    "cardProvider",
    stripeCardProvider({
      endpoint: stripeEndpointOf(config.CARD_PROVIDER_API_URL),
      httpClient:
        config.isSandbox && !config.CARD_PROVIDER_API_URL
          ? Stripe.createFetchHttpClient((input, init) => simulatorMount().card.stripeFetch(input, init))
          : undefined,
      timeoutMs: config.PROVIDER_CALL_TIMEOUT_MS,
      accountOf: async (db, account) =>
        (await findCardProviderAccount(db, account)) ??
        (config.isSandbox ? sandboxCardAccount(db, account.serviceId) : null),
      everyAccount: (db) => everyCardProviderAccount(db, { sandbox: config.isSandbox }),
      browserConfirmation: config.isSandbox
        ? (db, request) => simulatorMount().card.browserConfirmation(db, request)
        : undefined,
    }),
  );
  return installed;
}

/** Test hook: replaces the adapter (fault injection); `null` restores the environment's own. */
export function installCardProvider(provider: CardProvider | null): void {
  installed = provider ? outsideTransactions("cardProvider", provider) : null;
}
