import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { payments } from "../../db/schema";
import { ApiError } from "../../errors/api-error";
import { notifyPaymentChange } from "./notify-payment-change";
import type { PaymentRow } from "../../db/payment-record";
import { transition, type PaymentEvent } from "./payment-state";

type PaymentChanges = Partial<Omit<typeof payments.$inferInsert, "id" | "state" | "serviceId" | "updatedAt">>;

/**
 * Moves a locked payment along `event`: checks the transition table, writes the new state
 * with `changes` conditionally on the state it was read in, and enqueues the event's
 * notification, all in the caller's transaction.
 */
export async function applyTransition(
  tx: Db,
  options: {
    payment: PaymentRow;
    event: PaymentEvent;
    changes?: PaymentChanges;
    now: Date;
    /** Amounts the notification reports with this change (capture, refund). */
    notification?: { capturedMinor?: number; refundedMinor?: number };
  },
): Promise<PaymentRow> {
  const { payment, event, now } = options;
  const to = transition(payment.state, event);
  const [updated] = await tx
    .update(payments)
    .set({ ...options.changes, state: to, updatedAt: now })
    .where(and(eq(payments.id, payment.id), eq(payments.state, payment.state)))
    .returning();
  // The row is locked by the caller, so this only happens if a caller forgot the lock.
  if (!updated) throw new ApiError("invalid_state", "The payment changed while this request ran; check it again.");
  await notifyPaymentChange(tx, { payment: updated, event, now, ...options.notification });
  return updated;
}
