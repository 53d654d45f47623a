import type { ClientPrincipal, MerchantPrincipal, UserPrincipal } from "../auth/principal";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import { expirePayment } from "./expire-payment";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { intentExpired, isExpiredIntent } from "./payment-expiry";
import { lockPayment, type PaymentRow } from "./payment-record";
import { canTransition } from "./payment-state";
import { isStaleReservation, releaseStaleReservation } from "./release-stale-reservation";

/**
 * The payment's state for check: one prepared read besides auth. An open intent found past
 * its grace is failed on the spot (as the sweep would), so check never reports a payment that
 * can no longer complete as pending; merchant_auth then answers 410 (contract section 4).
 */
export async function checkPayment(
  db: Db,
  options: { principal: ClientPrincipal | MerchantPrincipal | UserPrincipal; paymentId: string },
): Promise<PaymentRow> {
  const { principal } = options;
  let payment = await getPaymentOrThrow(db, { principal, paymentId: options.paymentId });
  const now = serviceClock(principal.service).now();
  if (isStaleReservation(payment, now)) payment = await releaseNow(db, payment.id, now);
  if (!isExpiredIntent(payment, now)) return payment;
  if (canTransition(payment.state, "expire")) payment = await expireNow(db, payment.id, now);
  if (principal.mode === "merchant") throw intentExpired();
  return payment;
}

async function expireNow(db: Db, paymentId: string, now: Date): Promise<PaymentRow> {
  return db.transaction(async (tx) => {
    const locked = await lockPayment(tx, paymentId);
    if (!locked) throw new Error(`payment ${paymentId} vanished`);
    // Another request may have moved it meanwhile; only an open one still expires.
    return canTransition(locked.state, "expire") && isExpiredIntent(locked, now)
      ? expirePayment(tx, { payment: locked, now })
      : locked;
  });
}

/** The 7-day release the sweep would make, made now so check never reports a dead reservation as 13. */
async function releaseNow(db: Db, paymentId: string, now: Date): Promise<PaymentRow> {
  return db.transaction(async (tx) => {
    const locked = await lockPayment(tx, paymentId);
    if (!locked) throw new Error(`payment ${paymentId} vanished`);
    return isStaleReservation(locked, now) ? releaseStaleReservation(tx, { payment: locked, now }) : locked;
  });
}
