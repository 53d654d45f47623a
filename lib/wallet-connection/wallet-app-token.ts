import { isValidPageToken, pageTokenFor } from "../auth/client-secret";
import { walletAppUrl } from "../urls/hosted-urls";

/** The page-token kind of the sandbox wallet app: a hosted page token does not open it, nor the reverse. */
export const WALLET_APP_PAGE = "wallet-app";

/** The sandbox wallet app's link for a payment, which the QR code encodes (the shape: lib/urls/hosted-urls). */
export function sandboxWalletAppUrl(gatewayKey: Buffer, paymentId: string): string {
  return walletAppUrl({ paymentId, token: pageTokenFor(gatewayKey, WALLET_APP_PAGE, paymentId) });
}

export function isValidWalletAppToken(gatewayKey: Buffer, paymentId: string, token: string): boolean {
  return isValidPageToken(gatewayKey, WALLET_APP_PAGE, paymentId, token);
}
