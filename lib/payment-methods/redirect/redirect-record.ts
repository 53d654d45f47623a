// The provider side of a REDIRECT method's payment: its row, and what its provider operations send (redirect-funds.ts).
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { PaymentRow } from "../../db/payment-record";
import { providerOperations, redirectPayments } from "../../db/schema";
import {
  beginProviderOperation,
  findProviderOperation,
  operationId,
  type ProviderName,
} from "../../provider-operations";
import { isLocale } from "../../i18n/locales";
import type { Locale } from "../../i18n/routing";

export type RedirectPaymentRow = typeof redirectPayments.$inferSelect;

/** The provider side of a redirect payment; `lock` inside a transaction that already locked the payment. */
export async function findRedirectPayment(
  db: Db,
  paymentId: string,
  options: { lock?: boolean } = {},
): Promise<RedirectPaymentRow | null> {
  const query = db.select().from(redirectPayments).where(eq(redirectPayments.paymentId, paymentId));
  const [row] = options.lock ? await query.for("update") : await query;
  return row ?? null;
}

/** The language a payment's provider pages and answers use: the proceed's, else English. */
export function providerLocaleOf(payment: { locale: string | null }): Locale {
  return payment.locale && isLocale(payment.locale) ? payment.locale : "en";
}

/**
 * What every provider operation of a redirect payment sends (redirect-funds.ts reads it inside
 * the recording transaction): the provider's order and the merchant whose credentials the call uses.
 */
export async function redirectOperationRequest(
  tx: Db,
  payment: { id: string; serviceId: string; locale: string | null },
): Promise<Record<string, unknown>> {
  const row = await findRedirectPayment(tx, payment.id);
  if (!row?.providerOrderId) throw new Error(`redirect payment ${payment.id} has no provider order`);
  return { orderId: row.providerOrderId, serviceId: payment.serviceId, locale: providerLocaleOf(payment) };
}

/**
 * The one operation that gives back what a redirect payment's order holds once the payment cannot take it
 * (late completion, expiry).
 */
export const redirectReversalId = (paymentId: string) => operationId(`redirect-reversal:${paymentId}`);

/**
 * At the expiry of a RESERVATION (redirect-funds.ts): its registered order is reversed at the
 * provider (deferred, reconciliation sends it within seconds), so a pre-authorization never
 * outlives its payment, and a buyer still on the provider's page cannot complete it. An order
 * whose registration is still open is left to the late completion rule, which releases it.
 * `everyCapture`: a DIRECT order is closed the same way (a provider that cannot give a late
 * payment back, like Chargily, closes the order so nobody can pay it after the payment expired).
 */
export async function releaseUnfinishedRedirectOrder(
  tx: Db,
  payment: PaymentRow,
  provider: ProviderName,
  options: { everyCapture?: boolean } = {},
): Promise<void> {
  if (payment.captureMethod !== "RESERVATION" && !options.everyCapture) return;
  const row = await findRedirectPayment(tx, payment.id);
  if (!row?.providerOrderId) return;
  const id = redirectReversalId(payment.id);
  if (await findProviderOperation(tx, id, { paymentId: payment.id })) return;
  const [open] = await tx
    .select({ id: providerOperations.id })
    .from(providerOperations)
    .where(
      and(eq(providerOperations.paymentId, payment.id), inArray(providerOperations.status, ["pending", "unknown"])),
    );
  if (open) return;
  await beginProviderOperation(tx, {
    id,
    paymentId: payment.id,
    provider,
    kind: "release",
    deferred: true,
    request: { ...(await redirectOperationRequest(tx, payment)), reversal: true, reason: "expired" },
  });
}
