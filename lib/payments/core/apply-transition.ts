import { and, eq, is, sql, SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { preparedOn } from "../../db/prepared";
import { payments } from "../../db/schema";
import { ApiError } from "../../errors/api-error";
import { notifyPaymentChange } from "./notify-payment-change";
import type { PaymentRow } from "../../db/payment-record";
import { transition, type PaymentEvent } from "./payment-state";

type PaymentChanges = Partial<Omit<typeof payments.$inferInsert, "id" | "state" | "serviceId" | "updatedAt">>;

/**
 * The conditional update, built once per set of changed columns (a handful of shapes: each
 * caller changes the same columns every time). Like drizzle's `set`, an undefined change is
 * left out; a null one is written as a literal NULL, because a placeholder would pass it
 * through the column's encoder (a timestamp's throws on null, a jsonb's stores JSON null).
 */
function transitionUpdate(tx: Db, changes: Record<string, unknown>) {
  const keys = Object.keys(changes).filter((key) => changes[key] !== undefined);
  const shape = keys.map((key) => (changes[key] === null ? `${key}=null` : key)).join(",");
  return preparedOn(tx, `payment_transition(${shape})`, (tx) => {
    const set = Object.fromEntries(keys.map((key) => [key, changes[key] === null ? sql`null` : sql.placeholder(key)]));
    return tx
      .update(payments)
      .set({ ...(set as PaymentChanges), state: sql.placeholder("state"), updatedAt: sql.placeholder("updatedAt") } as PaymentChanges)
      .where(and(eq(payments.id, sql.placeholder("id")), eq(payments.state, sql.placeholder("fromState"))))
      .returning()
      .prepare(`payment_transition(${shape})`);
  });
}

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
  const changes: Record<string, unknown> = options.changes ?? {};
  // A change given as an SQL expression differs per call: that one is built on the spot.
  const [updated] = Object.values(changes).some((value) => is(value, SQL))
    ? await tx
        .update(payments)
        .set({ ...options.changes, state: to, updatedAt: now })
        .where(and(eq(payments.id, payment.id), eq(payments.state, payment.state)))
        .returning()
    : await transitionUpdate(tx, changes).execute({ ...changes, state: to, updatedAt: now, id: payment.id, fromState: payment.state });
  // The row is locked by the caller, so this only happens if a caller forgot the lock.
  if (!updated) throw new ApiError("invalid_state", "The payment changed while this request ran; check it again.");
  await notifyPaymentChange(tx, { payment: updated, event, now, ...options.notification });
  return updated;
}
