// The provider side of a REDIRECT method's payment (lib/payment-methods/redirect), read here below the methods
// because payment-funds.ts (the refund's request) reads it too.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { redirectPayments } from "../../db/schema";
import { isLocale } from "../../i18n/locales";
import type { Locale } from "../../i18n/routing";

export type RedirectPaymentRow = typeof redirectPayments.$inferSelect;

/** The provider side of a redirect payment; `lock` inside a transaction that already locked the payment. */
export async function findRedirectPayment(db: Db, paymentId: string, options: { lock?: boolean } = {}): Promise<RedirectPaymentRow | null> {
  const query = db.select().from(redirectPayments).where(eq(redirectPayments.paymentId, paymentId));
  const [row] = options.lock ? await query.for("update") : await query;
  return row ?? null;
}

/** The language a payment's provider pages and answers use: the proceed's, else English. */
export function providerLocaleOf(payment: { locale: string | null }): Locale {
  return payment.locale && isLocale(payment.locale) ? payment.locale : "en";
}

/**
 * What every provider operation of a redirect payment sends (payment-funds.ts reads it inside
 * the recording transaction): the provider's order and the merchant whose credentials the call uses.
 */
export async function redirectOperationRequest(tx: Db, payment: { id: string; serviceId: string; locale: string | null }): Promise<Record<string, unknown>> {
  const row = await findRedirectPayment(tx, payment.id);
  if (!row?.providerOrderId) throw new Error(`redirect payment ${payment.id} has no provider order`);
  return { orderId: row.providerOrderId, serviceId: payment.serviceId, locale: providerLocaleOf(payment) };
}
