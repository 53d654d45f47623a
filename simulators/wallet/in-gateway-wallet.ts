import { hmacHex } from "../../lib/crypto/secrets";
import { getConfig } from "../../lib/config";
import { getGatewayKey } from "../../lib/crypto/gateway-key";
import { getDb } from "../../lib/db/client";
import { sandboxWalletAppUrl } from "../../lib/wallet-connection/wallet-app-token";
import { walletProtocolServer, type WalletProtocolServer } from "./serve-wallet-protocol";

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

type Handler = (request: Request) => Promise<Response>;
/** Tests: stands between the in-process wallet's callbacks and the gateway (to lose, repeat or forge one). */
export type WalletCallbackWrapper = (request: Request, deliver: Handler) => Promise<Response>;

const globalForWallet = globalThis as unknown as {
  inGatewayWalletServer?: Promise<WalletProtocolServer>;
  walletCallbackWrapper?: WalletCallbackWrapper | null;
  callbackReceiver?: Handler;
};

export function installWalletCallbackDelivery(wrapper: WalletCallbackWrapper | null): void {
  globalForWallet.walletCallbackWrapper = wrapper;
}

/**
 * Where this process's gateway receives the wallet's callbacks (its callback URL is this
 * gateway's own): wired by the composition root that mounts the simulators (mount-simulators.ts),
 * so the sandbox wallet does not import the gateway it serves.
 */
export function receiveWalletCallbacksInProcess(receiver: Handler): void {
  globalForWallet.callbackReceiver = receiver;
}

async function deliverToGateway(request: Request): Promise<Response> {
  const receiver = globalForWallet.callbackReceiver;
  if (!receiver) return new Response(null, { status: 503 }); // Retried by the wallet; reconciliation asks meanwhile.
  const wrapper = globalForWallet.walletCallbackWrapper;
  return wrapper ? wrapper(request, receiver) : receiver(request);
}

/** The sandbox wallet on the gateway's database (one per process): its route's handler and its in-process transport. */
export function inGatewayWallet(): Promise<WalletProtocolServer> {
  globalForWallet.inGatewayWalletServer ??= (async () => {
    const db = await getDb();
    const [secret, gatewayKey] = await Promise.all([sandboxWalletSecret(), getGatewayKey(db)]);
    return walletProtocolServer({
      db,
      secret,
      basePath: IN_GATEWAY_WALLET_PATH,
      // The QR code opens the sandbox wallet app page of the payment.
      qrContent: ({ paymentId }) => sandboxWalletAppUrl(gatewayKey, paymentId),
      deliverCallback: deliverToGateway,
    });
  })().catch((error: unknown) => {
    globalForWallet.inGatewayWalletServer = undefined;
    throw error;
  });
  return globalForWallet.inGatewayWalletServer;
}
