import { eq } from "drizzle-orm";
import { serviceClock } from "../../../clock";
import type { Db } from "../../../db/client";
import { payments, services } from "../../../db/schema";
import { bringPaymentUpToDate } from "../../../payments/core/open-payment";
import type { MethodFundsLookup } from "../../../payments/core/method-funds";
import { failedByExpiry } from "../../../payments/core/payment-expiry";
import { checkStatusCode, type PaymentState } from "../../../payments/core/payment-state";
import { hasHostedToken } from "../../../payments/core/hosted-access";

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
export async function getQrPaymentStatus(
  db: Db,
  options: { paymentId: string; token: string; methods: MethodFundsLookup },
): Promise<QrPaymentStatus | null> {
  const { paymentId, token } = options;
  if (!(await hasHostedToken(db, paymentId, token))) return null;
  const [row] = await db
    .select({ payment: payments, clockOffsetSeconds: services.clockOffsetSeconds })
    .from(payments)
    .innerJoin(services, eq(services.id, payments.serviceId))
    .where(eq(payments.id, paymentId));
  if (!row || row.payment.transactionType !== "QR_CODE") return null;

  const payment = await bringPaymentUpToDate(db, row.payment, serviceClock(row).now(), options.methods);
  return { statusCode: checkStatusCode(payment.state), state: payment.state, expired: failedByExpiry(payment) };
}
