import { eq, sql } from "drizzle-orm";
import { isPaymentId, type PaymentRow } from "../db/payment-record";
import { payments } from "../db/schema";

/**
 * The payment a request's path names, read by the auth statement itself: a check is then one
 * round trip (credential, limits and payment together) instead of two. The row is read on that
 * statement's snapshot, as a read right after it would be; the endpoint still scopes it to the
 * principal (getPaymentOrThrow's rules), so nothing is shown that a separate read would hide.
 */
export interface WithPathPayment<P> {
  principal: P;
  /**
   * The row, or null when no payment has the path's id; undefined when auth did not read it (this
   * credential kind or limit store).
   */
  pathPayment?: PaymentRow | null;
}

/** The join condition; the id is null when it is not a uuid, which matches no payment (as findPayment answers). */
export const pathPaymentJoin = () => eq(payments.id, sql`${sql.placeholder("pathPaymentId")}::uuid`);

/** The statement's parameter for `pathPaymentJoin`: none when the payment is not read. */
export function pathPaymentParameter(pathPaymentId: string | undefined): { pathPaymentId?: string | null } {
  if (pathPaymentId === undefined) return {};
  return { pathPaymentId: isPaymentId(pathPaymentId) ? pathPaymentId : null };
}
