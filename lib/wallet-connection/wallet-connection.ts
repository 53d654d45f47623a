import { getConfig } from "../config";
import { outsideTransactions } from "../db/transaction-guard";
import { networkTransport, walletClient, type WalletClient } from "../providers/wallet/http-wallet-client";
import type { WalletRequest, WalletResponse, WalletTransport } from "../providers/wallet/wallet-protocol";
import { simulatorMount } from "../providers/simulator-mount";

/*
 * The wallet the payment flows talk to: always the HTTP client of the wallet-service protocol
 * (docs/wallet-protocol.openapi.yaml). Production: WALLET_PROVIDER_URL and its secret. The
 * sandbox: the same settings when given, else the sandbox wallet this gateway serves under
 * /api/wallet-sandbox, reached in process (the same signed requests and answers, no socket):
 * the simulator this process mounted (lib/providers/simulator-mount.ts).
 * Every method is wrapped by the transaction guard: a wallet call inside a database
 * transaction throws.
 */

/** Tests: wraps the transport to inject faults (a reset before or after the wallet applied a call, a 5xx, ...). */
export type WalletTransportWrapper = (request: WalletRequest, next: WalletTransport) => Promise<WalletResponse>;

const globalForWallet = globalThis as unknown as { walletTransportWrapper?: WalletTransportWrapper | null };

export function installWalletTransport(wrapper: WalletTransportWrapper | null): void {
  globalForWallet.walletTransportWrapper = wrapper;
}

async function baseTransport(): Promise<{ baseUrl: string; secret: string; transport: WalletTransport }> {
  const config = getConfig();
  if (config.WALLET_PROVIDER_URL && config.WALLET_PROVIDER_SECRET) {
    return { baseUrl: config.WALLET_PROVIDER_URL, secret: config.WALLET_PROVIDER_SECRET, transport: networkTransport };
  }
  if (!config.isSandbox) throw new Error("WALLET_PROVIDER_URL and WALLET_PROVIDER_SECRET are required in production.");
  const { wallet } = simulatorMount();
  const server = await wallet.server();
  return { baseUrl: `${config.publicBaseUrl}${wallet.path}`, secret: await wallet.secret(), transport: server.answer };
}

/** The secret both directions are signed with: the wallet's calls and its callbacks to the gateway. */
export async function walletSecret(): Promise<string> {
  const config = getConfig();
  if (config.WALLET_PROVIDER_URL && config.WALLET_PROVIDER_SECRET) return config.WALLET_PROVIDER_SECRET;
  if (!config.isSandbox) throw new Error("WALLET_PROVIDER_URL and WALLET_PROVIDER_SECRET are required in production.");
  return simulatorMount().wallet.secret();
}

/**
 * The wallet client for one flow. `now` is the service clock's reading, sent to the sandbox
 * wallet only (its clock may run ahead); a real wallet keeps its own time.
 */
export async function connectedWallet(options: { now?: Date } = {}): Promise<WalletClient> {
  const config = getConfig();
  const { baseUrl, secret, transport } = await baseTransport();
  const wrapper = globalForWallet.walletTransportWrapper;
  const client = walletClient({
    baseUrl,
    secret,
    timeoutMs: config.WALLET_PROVIDER_TIMEOUT_MS,
    sandboxNow: config.isSandbox ? options.now : undefined,
    transport: wrapper ? (request) => wrapper(request, transport) : transport,
  });
  return outsideTransactions("wallet", client);
}

/** The account the wallet knows a payment's customer by. */
export function walletAccountOf(payment: { serviceId: string; customerId: string }) {
  return { merchantId: payment.serviceId, customerId: payment.customerId };
}
