import { eq } from "drizzle-orm";
import { serviceClock } from "../../../clock";
import { getGatewayKey } from "../../../crypto/gateway-key";
import type { Db } from "../../../db/client";
import { payments, services } from "../../../db/schema";
import { fromMinorUnits } from "../../../money/amount";
import type { QrRequest } from "../../../providers/wallet/port";
import { isValidWalletAppToken } from "../../../wallet-connection/wallet-app-token";
import { connectedWallet, walletAccountOf } from "../../../wallet-connection/wallet-connection";
import { showsAsExpired } from "../../../payments/core/payment-expiry";
import { isPaymentId } from "../../../db/payment-record";
import type { PaymentState } from "../../../payments/core/payment-state";
import { findQrCharge } from "../wallet-qr";

export interface WalletAppView {
  paymentId: string;
  merchantName: string;
  /** Standard units, as the API renders them. */
  amount: number;
  currency: string;
  captureMethod: "DIRECT" | "RESERVATION";
  state: PaymentState;
  /** Still open past expiresAt + 30 s grace, or already failed for it. */
  expired: boolean;
  qr: QrRequest;
  /** The customer's available wallet balance in the payment's currency, standard units. */
  availableBalance: number;
}

/**
 * What the sandbox wallet app shows the customer who scanned a QR payment: who asks, how much,
 * what the wallet holds, and the request's answer if it has one. Null for a wrong token, an
 * unknown payment, and a payment without a QR request alike.
 */
export async function getWalletAppPayment(
  db: Db,
  options: { paymentId: string; token: string },
): Promise<WalletAppView | null> {
  const { paymentId, token } = options;
  if (!isPaymentId(paymentId) || typeof token !== "string") return null;
  if (!isValidWalletAppToken(await getGatewayKey(db), paymentId, token)) return null;
  const [row] = await db
    .select({ payment: payments, merchantName: services.name, clockOffsetSeconds: services.clockOffsetSeconds })
    .from(payments)
    .innerJoin(services, eq(services.id, payments.serviceId))
    .where(eq(payments.id, paymentId));
  if (!row) return null;
  const { payment } = row;
  const qrRequestId = (await findQrCharge(db, paymentId))?.request.qrRequestId;
  if (typeof qrRequestId !== "string") return null;
  // The wallet app is the wallet's own screen: what it shows comes from the wallet service.
  const wallet = await connectedWallet();
  const [qr, { availableMinor }] = await Promise.all([
    wallet.qrRequest(qrRequestId),
    wallet.balance({ ...walletAccountOf(payment), currency: payment.currency }),
  ]);
  if (!qr) return null;
  return {
    paymentId,
    merchantName: row.merchantName,
    amount: fromMinorUnits(payment.amountMinor, payment.currency),
    currency: payment.currency,
    captureMethod: payment.captureMethod,
    state: payment.state,
    expired: showsAsExpired(payment, serviceClock(row).now()),
    qr: { orderId: qr.orderId, transactionId: qr.qrRequestId, status: qr.status, approvalCode: qr.approvalCode },
    availableBalance: fromMinorUnits(availableMinor, payment.currency),
  };
}
