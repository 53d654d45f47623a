import { hmacHex } from "../crypto/secrets";
import { getConfig } from "../config";
import { getGatewayKey } from "../crypto/gateway-key";
import { getDb } from "../db/client";
import { sandboxWalletAppUrl } from "../providers/wallet/sandbox-wallet-qr";
import { walletProtocolHandler } from "./serve-wallet-protocol";

/** Where a sandbox gateway serves its own wallet: the protocol's paths hang under it. */
export const IN_GATEWAY_WALLET_PATH = "/api/wallet-sandbox";

/**
 * The secret the sandbox gateway and its in-process wallet sign with: WALLET_PROVIDER_SECRET
 * when set, else one derived from the gateway key (the same in every instance).
 */
export async function sandboxWalletSecret(): Promise<string> {
  const configured = getConfig().WALLET_PROVIDER_SECRET;
  if (configured) return configured;
  const key = await getGatewayKey(await getDb());
  return `whsec_${Buffer.from(hmacHex(key, "wallet-sandbox", "v1"), "hex").toString("base64")}`;
}

const globalForWallet = globalThis as unknown as { inGatewayWallet?: Promise<(request: Request) => Promise<Response>> };

/** The sandbox wallet's protocol handler on the gateway's database (one per process). */
export function inGatewayWalletHandler(): Promise<(request: Request) => Promise<Response>> {
  globalForWallet.inGatewayWallet ??= (async () => {
    const db = await getDb();
    const [secret, gatewayKey] = await Promise.all([sandboxWalletSecret(), getGatewayKey(db)]);
    return walletProtocolHandler({
      db,
      secret,
      basePath: IN_GATEWAY_WALLET_PATH,
      // The QR code opens the sandbox wallet app page of the payment.
      qrContent: ({ paymentId }) => sandboxWalletAppUrl(gatewayKey, paymentId),
    });
  })().catch((error: unknown) => {
    globalForWallet.inGatewayWallet = undefined;
    throw error;
  });
  return globalForWallet.inGatewayWallet;
}
