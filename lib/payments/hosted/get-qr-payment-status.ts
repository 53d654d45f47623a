import { eq } from "drizzle-orm";
import { isValidPageToken } from "../../auth/client-secret";
import { serviceClock } from "../../clock";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { payments, services } from "../../db/schema";
import { expirePayment } from "../expire-payment";
import { HOSTED_PAGE } from "../pay-url";
import { failedByExpiry, isExpiredIntent } from "../payment-expiry";
import { isPaymentId, lockPaymentWithService, type PaymentRow } from "../payment-record";
import { canTransition, checkStatusCode, type PaymentState } from "../payment-state";

/** What the hosted QR page polls for: check's status code, and whether the payment ran out of time. */
export interface QrPaymentStatus {
  statusCode: number;
  state: PaymentState;
  expired: boolean;
}

/**
 * GET /api/v1/qr/:id/status: the state of a QR payment for the holder of its page token. Like
 * check, an open payment found past its grace is failed on the spot (the sweep would do it
 * within seconds), so the page ends exactly when the payment can no longer complete. Null
 * for a wrong token, an unknown payment or one that is not a QR intent.
 */
export async function getQrPaymentStatus(db: Db, options: { paymentId: string; token: string }): Promise<QrPaymentStatus | null> {
  const { paymentId, token } = options;
  if (!isPaymentId(paymentId) || !isValidPageToken(await getGatewayKey(db), HOSTED_PAGE, paymentId, token)) return null;
  const [row] = await db
    .select({ payment: payments, clockOffsetSeconds: services.clockOffsetSeconds })
    .from(payments)
    .innerJoin(services, eq(services.id, payments.serviceId))
    .where(eq(payments.id, paymentId));
  if (!row || row.payment.transactionType !== "QR_CODE") return null;

  const now = serviceClock(row).now();
  const payment = isExpiredIntent(row.payment, now) ? await expireNow(db, paymentId, now) : row.payment;
  return { statusCode: checkStatusCode(payment.state), state: payment.state, expired: failedByExpiry(payment) };
}

async function expireNow(db: Db, paymentId: string, now: Date): Promise<PaymentRow> {
  return db.transaction(async (tx) => {
    const locked = await lockPaymentWithService(tx, paymentId);
    if (!locked) throw new Error(`payment ${paymentId} vanished`);
    // An answer from the wallet app may have settled it meanwhile; only an open one still expires.
    return canTransition(locked.payment.state, "expire") && isExpiredIntent(locked.payment, now)
      ? expirePayment(tx, { payment: locked.payment, now })
      : locked.payment;
  });
}
