import { eq, sql } from "drizzle-orm";
import { isPaymentId, type PaymentRow } from "../db/payment-record";
import { payments } from "../db/schema";

/**
 * The payment a request names, read by the auth statement itself: a check is then one round
 * trip (credential, limits and payment together) instead of two. The row is read on that
 * statement's snapshot, as a read right after it would be; the endpoint still scopes it to the
 * principal (getPaymentOrThrow's rules), so nothing is shown that a separate read would hide.
 */
export interface PaymentAlongside {
  paymentId: string;
  /** Set by the resolver that read it: the row, or null when no payment has this id. Unset: not read (this credential kind or store does not fold it). */
  found?: PaymentRow | null;
}

/** The join condition; the id is null when it is not a uuid, which matches no payment (as findPayment answers). */
export const paymentAlongsideCondition = () => eq(payments.id, sql`${sql.placeholder("alongsidePaymentId")}::uuid`);

export function paymentAlongsideParameter(alongside: PaymentAlongside | undefined): { alongsidePaymentId?: string | null } {
  if (!alongside) return {};
  return { alongsidePaymentId: isPaymentId(alongside.paymentId) ? alongside.paymentId : null };
}
