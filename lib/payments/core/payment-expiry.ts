import { ApiError } from "../../errors/api-error";
import { FAILURE_REASON } from "./payment-messages";
import { isTerminal, type PaymentState } from "./payment-state";

/** Contract section 4. */
export const INTENT_LIFETIME_MS = 30 * 60 * 1000;
export const EXPIRY_GRACE_MS = 30 * 1000;
export const RESERVATION_AUTO_RELEASE_MS = 7 * 24 * 60 * 60 * 1000;

export function intentExpiresAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + INTENT_LIFETIME_MS);
}

/** Past `expiresAt` plus the grace, read on the service's clock. */
export function isPastGrace(payment: { expiresAt: Date }, now: Date): boolean {
  return now.getTime() > payment.expiresAt.getTime() + EXPIRY_GRACE_MS;
}

/** A non-terminal intent past the grace: the 30-minute rule applies to it. */
export function isExpiredIntent(payment: { state: PaymentState; expiresAt: Date }, now: Date): boolean {
  return !isTerminal(payment.state) && isPastGrace(payment, now);
}

/** A payment the expiry (sweep or a late call) failed; proceeding it keeps answering 410. */
export function failedByExpiry(payment: { state: PaymentState; failureReason: string | null }): boolean {
  return payment.state === "FAILED" && payment.failureReason === FAILURE_REASON.expired;
}

export const intentExpired = () =>
  new ApiError("intent_expired", "The payment intent has expired. Create a new intent.");

/**
 * What a page shows as "expired": an intent past its grace that nothing has failed yet, or one
 * the expiry failed. Every hosted page and the wallet app read this one rule.
 */
export function showsAsExpired(
  payment: { state: PaymentState; expiresAt: Date; failureReason: string | null },
  now: Date,
): boolean {
  return isExpiredIntent(payment, now) || failedByExpiry(payment);
}
