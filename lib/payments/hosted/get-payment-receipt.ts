import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { payments, services } from "../../db/schema";
import { merchantTimeZone } from "../../merchants/merchant-time-zone";
import type { PaymentState } from "../core/payment-state";
import { hasHostedToken } from "../core/hosted-access";

/** What a payment's receipt states: read with the return page's own token, nothing more. */
export interface PaymentReceipt {
  paymentId: string;
  /** The merchant's own reference of the payment (create's actionId). */
  actionId: string;
  merchantName: string;
  amountMinor: number;
  currency: string;
  state: PaymentState;
  /** When the payment last changed: the moment the receipt's outcome was reached. */
  at: Date;
  /**
   * The provider's order number and authorization code, where the method has them (redirect methods, QR);
   * null otherwise.
   */
  providerOrderNumber: string | null;
  authorizationCode: string | null;
  /**
   * The merchant's time zone (contract 13's setting, else its first country's): the receipt's time is written
   * in it.
   */
  timeZone: string;
}

/**
 * The receipt of one payment, for whoever holds its return page's token (the same HMAC the
 * return page checks): null for a wrong token or an unknown payment alike, so a receipt address
 * tells nothing about another buyer's payment.
 */
export async function getPaymentReceipt(
  db: Db,
  options: { paymentId: string; token: unknown },
): Promise<PaymentReceipt | null> {
  if (!(await hasHostedToken(db, options.paymentId, options.token))) return null;
  const [row] = await db
    .select({
      paymentId: payments.id,
      actionId: payments.actionId,
      merchantName: services.name,
      amountMinor: payments.amountMinor,
      currency: payments.currency,
      state: payments.state,
      at: payments.updatedAt,
      providerOrderNumber: payments.providerOrderId,
      authorizationCode: payments.approvalCode,
      merchantTimeZone: services.timeZone,
      countries: services.countries,
    })
    .from(payments)
    .innerJoin(services, eq(services.id, payments.serviceId))
    .where(eq(payments.id, options.paymentId));
  if (!row) return null;
  const { merchantTimeZone: chosen, countries, ...receipt } = row;
  return { ...receipt, timeZone: merchantTimeZone({ timeZone: chosen, countries }) };
}
