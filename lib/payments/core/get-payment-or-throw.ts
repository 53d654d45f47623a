import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/client";
import { ApiError, invalidCredentials } from "../../errors/api-error";
import { findPayment, lockPayment, type PaymentRow } from "../../db/payment-record";

const notFound = () => new ApiError("not_found", "No such payment.");

/**
 * The payment as the caller may see it. Under client_auth only the service's payments
 * exist (404 otherwise); under user_auth only the customer's own (404); under merchant_auth
 * and the bare client secret an unknown or foreign intent is the same 401 as a bad secret,
 * so ids cannot be enumerated. With `lock`, call it inside the transaction that changes it.
 */
export async function getPaymentOrThrow(
  db: Db,
  options: { principal: Principal; paymentId: string; lock?: boolean },
): Promise<PaymentRow> {
  const { principal, paymentId } = options;
  const payment = options.lock ? await lockPayment(db, paymentId) : await findPayment(db, paymentId);
  return scopedPaymentOrThrow(principal, payment);
}

/** getPaymentOrThrow's scoping of a payment the caller read some other way (null: no such payment). */
export function scopedPaymentOrThrow(principal: Principal, payment: PaymentRow | null): PaymentRow {
  switch (principal.mode) {
    case "client":
      if (!payment || payment.serviceId !== principal.service.id) throw notFound();
      return payment;
    case "user":
      if (!payment || payment.serviceId !== principal.service.id || payment.customerId !== principal.customerId) {
        throw notFound();
      }
      return payment;
    case "merchant":
      if (!payment || payment.id !== principal.paymentId || payment.serviceId !== principal.service.id) {
        throw invalidCredentials();
      }
      return payment;
    case "intent_secret":
      if (!payment || payment.id !== principal.paymentId) throw invalidCredentials();
      return payment;
  }
}
