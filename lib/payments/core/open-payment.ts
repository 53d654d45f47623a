import type { ClientPrincipal, BrowserPrincipal, Principal, UserPrincipal } from "../../auth/principal";
import { serviceClock } from "../../clock";
import type { Db } from "../../db/client";
import { expirePayment } from "./expire-payment";
import { getPaymentOrThrow, scopedPaymentOrThrow } from "./get-payment-or-throw";
import { failedByExpiry, intentExpired, isExpiredIntent } from "./payment-expiry";
import { findPayment, lockPayment, type PaymentRow } from "../../db/payment-record";
import { canTransition, isTerminal } from "./payment-state";
import { isStaleReservation, releaseStaleReservation, returnStaleFunds } from "./release-stale-reservation";
import type { MethodFundsLookup } from "./method-funds";

// The one home of "a read finds the payment past its time": an open intent past its grace is
// failed on the spot (as the sweep would, seconds later), a reservation past its 7 days is
// released, and a merchant_auth caller of an expired intent gets 410 (contract section 4).
// Every read and every proceed goes through here, so no caller ever sees a payment the sweep
// has merely not reached yet.

/** What the sweep would do to this payment now, if anything. */
function overdueChange(payment: PaymentRow, now: Date): "release_stale" | "expire" | null {
  if (isStaleReservation(payment, now)) return "release_stale";
  if (isExpiredIntent(payment, now) && canTransition(payment.state, "expire")) return "expire";
  return null;
}

/**
 * A payment read without a lock, brought up to date: when the sweep is due on it, it is locked
 * and read again (another request may have moved it meanwhile) and the change made. A stale
 * reservation's hold goes back to the customer after the commit (returnStaleFunds), so the
 * provider is never called inside the transaction. `methods`: the registry's methodFunds.
 */
export async function bringPaymentUpToDate(
  db: Db,
  payment: PaymentRow,
  now: Date,
  methods: MethodFundsLookup,
): Promise<PaymentRow> {
  if (!overdueChange(payment, now)) return payment;
  const changed = await db.transaction(async (tx) => {
    const locked = await lockPayment(tx, payment.id);
    if (!locked) throw new Error(`payment ${payment.id} vanished`);
    switch (overdueChange(locked, now)) {
      case "release_stale":
        return {
          released: true as const,
          operation: await releaseStaleReservation(tx, { payment: locked, now, methods }),
        };
      case "expire":
        return {
          released: false as const,
          payment: await expirePayment(tx, { payment: locked, now, funds: methods.of(locked) }),
        };
      case null:
        return { released: false as const, payment: locked };
    }
  });
  // A QR payment whose charge is open could not expire: its request is withdrawn at the wallet now.
  if (!changed.released)
    return (await methods.of(changed.payment)?.expiry.afterCommit?.(db, changed.payment)) ?? changed.payment;
  await returnStaleFunds(db, [changed.operation], methods);
  return (await findPayment(db, payment.id))!;
}

/**
 * The payment as the caller may see it now (getPaymentOrThrow's scoping), brought up to date;
 * merchant_auth on an intent past its grace: 410. `alreadyRead`: the row (or null) the auth
 * statement read with the credential (path-payment.ts), which spares a second read.
 */
export async function getCurrentPaymentOrThrow(
  db: Db,
  options: {
    principal: ClientPrincipal | BrowserPrincipal | UserPrincipal;
    paymentId: string;
    alreadyRead?: PaymentRow | null;
    methods: MethodFundsLookup;
  },
): Promise<PaymentRow> {
  const { principal, alreadyRead } = options;
  const now = serviceClock(principal.service).now();
  const found =
    alreadyRead === undefined
      ? await getPaymentOrThrow(db, { principal, paymentId: options.paymentId })
      : scopedPaymentOrThrow(principal, alreadyRead);
  const payment = await bringPaymentUpToDate(db, found, now, options.methods);
  // A released reservation is over by its own rule, not the intent's: check answers it (10).
  // A QR approval the wallet took before the request could be withdrawn stands.
  const expiredNow = failedByExpiry(payment) || !isTerminal(payment.state);
  if (principal.mode === "merchant" && isExpiredIntent(found, now) && !isStaleReservation(found, now) && expiredNow)
    throw intentExpired();
  return payment;
}

/**
 * Inside the transaction that will change it: the caller's payment, locked, when it is still
 * open. An intent past its grace is failed now and answered `{ expired: true }`, so the caller
 * commits the expiry and then answers 410; one the expiry failed before, or merchant_auth on
 * an expired one, is a 410 straight away.
 */
export async function lockOpenPaymentOrThrow(
  tx: Db,
  options: { principal: Principal; paymentId: string; now: Date; methods: MethodFundsLookup },
): Promise<{ expired: true } | { expired: false; payment: PaymentRow }> {
  const { principal, now } = options;
  const payment = await getPaymentOrThrow(tx, { principal, paymentId: options.paymentId, lock: true });
  if (isExpiredIntent(payment, now) && canTransition(payment.state, "expire")) {
    const after = await expirePayment(tx, { payment, now, funds: options.methods.of(payment) });
    if (after.state !== payment.state) return { expired: true };
    // A wallet charge still out holds the payment open (expirePayment): the owner's retry takes
    // that charge up again below instead of hearing 410 for a payment the wallet may have paid.
  }
  if (failedByExpiry(payment) || (principal.mode === "merchant" && isExpiredIntent(payment, now)))
    throw intentExpired();
  return { expired: false, payment };
}
