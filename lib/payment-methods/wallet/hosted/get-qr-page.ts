import { getConfig } from "../../../config";
import { getGatewayKey } from "../../../crypto/gateway-key";
import type { Db } from "../../../db/client";
import { pageTokenFor } from "../../../auth/client-secret";
import { isWalletQrPayment } from "../wallet-qr-payment";
import { WALLET_APP_PAGE } from "../../../wallet-connection/wallet-app-token";
import type { HostedPaymentView } from "../../contract/hosted-payment-view";

export interface QrPageData {
  payment: HostedPaymentView;
  /**
   * Sandbox only: the wallet app's token, so the page can link testers without a phone to the
   * page its QR code encodes. Whoever sees the code can scan that link anyway.
   */
  walletAppToken: string | null;
}

/**
 * What the hosted QR page renders from: the payment its token shows (read by the page, getHostedPayment) and
 * the sandbox's wallet app link.
 */
export async function readQrPage(db: Db, payment: HostedPaymentView): Promise<QrPageData> {
  const proceededQr = isWalletQrPayment(payment);
  const walletAppToken =
    getConfig().isSandbox && proceededQr
      ? pageTokenFor(await getGatewayKey(db), WALLET_APP_PAGE, payment.paymentId)
      : null;
  return { payment, walletAppToken };
}
