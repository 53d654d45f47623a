import { getConfig } from "../../config";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { pageTokenFor } from "../../auth/client-secret";
import { isProceededQrPayment } from "../../payment-methods/registry/payment-method-registry";
import { WALLET_APP_PAGE } from "../../wallet-connection/wallet-app-token";
import { getHostedPayment, type HostedPaymentView } from "./get-hosted-payment";

export interface QrPageView {
  payment: HostedPaymentView;
  /**
   * Sandbox only: the wallet app's token, so the page can link testers without a phone to the
   * page its QR code encodes. Whoever sees the code can scan that link anyway.
   */
  walletAppToken: string | null;
}

/** What the hosted QR page renders from; null for a wrong token or an unknown payment. */
export async function getQrPage(db: Db, options: { paymentId: string; token: string }): Promise<QrPageView | null> {
  const payment = await getHostedPayment(db, options);
  if (!payment) return null;
  const proceededQr = isProceededQrPayment(payment);
  const walletAppToken = getConfig().isSandbox && proceededQr ? pageTokenFor(await getGatewayKey(db), WALLET_APP_PAGE, payment.paymentId) : null;
  return { payment, walletAppToken };
}
