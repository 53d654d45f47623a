import { getConfig } from "../../config";
import type { WalletProvider } from "./port";
import { sandboxWallet } from "./sandbox-wallet";

/**
 * The wallet adapter of this environment. Only the sandbox simulation exists so far; a
 * production adapter (WALLET_PROVIDER_URL) plugs in here without touching lib/payments.
 */
export function walletProvider(): WalletProvider {
  if (getConfig().isSandbox) return sandboxWallet;
  throw new Error("No production wallet adapter is installed; WALLET_V2 cannot be processed.");
}
