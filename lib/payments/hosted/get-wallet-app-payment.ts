import { eq } from "drizzle-orm";
import { serviceClock } from "../../clock";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { payments, services } from "../../db/schema";
import { fromMinorUnits } from "../../money/amount";
import type { QrRequest } from "../../providers/wallet/port";
import { isValidWalletAppToken } from "../../providers/wallet/sandbox-wallet-qr";
import { walletProvider } from "../../providers/wallet/wallet-provider";
import { failedByExpiry, isPastGrace } from "../payment-expiry";
import { isPaymentId } from "../payment-record";
import { isTerminal, type PaymentState } from "../payment-state";

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
export async function getWalletAppPayment(db: Db, options: { paymentId: string; token: string }): Promise<WalletAppView | null> {
  const { paymentId, token } = options;
  if (!isPaymentId(paymentId) || typeof token !== "string") return null;
  if (!isValidWalletAppToken(await getGatewayKey(db), paymentId, token)) return null;
  const [row] = await db
    .select({ payment: payments, merchantName: services.name, clockOffsetSeconds: services.clockOffsetSeconds })
    .from(payments)
    .innerJoin(services, eq(services.id, payments.serviceId))
    .where(eq(payments.id, paymentId));
  if (!row) return null;
  const wallet = walletProvider();
  const qr = await wallet.qrRequest(db, { paymentId });
  if (!qr) return null;
  const { payment } = row;
  const { availableMinor } = await wallet.balance(db, {
    serviceId: payment.serviceId,
    customerId: payment.customerId,
    currency: payment.currency,
  });
  return {
    paymentId,
    merchantName: row.merchantName,
    amount: fromMinorUnits(payment.amountMinor, payment.currency),
    currency: payment.currency,
    captureMethod: payment.captureMethod,
    state: payment.state,
    expired: (!isTerminal(payment.state) && isPastGrace(payment, serviceClock(row).now())) || failedByExpiry(payment),
    qr,
    availableBalance: fromMinorUnits(availableMinor, payment.currency),
  };
}
