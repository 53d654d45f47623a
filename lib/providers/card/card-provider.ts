import { getConfig } from "../../config";
import type { CardProvider } from "./port";
import { sandboxCardProvider } from "./sandbox-card-provider";

/**
 * The card provider adapter of this environment. Only the sandbox simulation exists so far;
 * a production adapter (CARD_PROVIDER_SECRET_KEY) plugs in here without touching lib/payments.
 */
export function cardProvider(): CardProvider {
  if (getConfig().isSandbox) return sandboxCardProvider;
  throw new Error("No production card provider adapter is installed; CARD_PROVIDER cannot be processed.");
}
