import { and, eq, getTableColumns, is, sql, SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { preparedOn } from "../../db/prepared";
import { payments, paymentStateChanges } from "../../db/schema";
import { ApiError } from "../../errors/api-error";
import { metrics } from "../../metrics/gateway-metrics";
import { notifyPaymentChange } from "./notify-payment-change";
import type { PaymentRow } from "../../db/payment-record";
import { transition, type PaymentEvent } from "./payment-state";
import { causeColumns, type StateChangeCause } from "./state-change-cause";

type PaymentChanges = Partial<Omit<typeof payments.$inferInsert, "id" | "state" | "serviceId" | "updatedAt">>;
type TransitionValue = "id" | "fromState" | "state" | "updatedAt" | "cause" | "consoleUserEmail";

/**
 * The conditional update and the timeline row it makes, as ONE statement (data-modifying CTEs):
 * the row is written only when the update matched, in the same round trip as before. `value`
 * gives each parameter: a placeholder for the prepared shapes, the value itself otherwise.
 */
function transitionQuery(tx: Db, set: PaymentChanges, value: (name: TransitionValue) => unknown) {
  const update = tx
    .update(payments)
    .set({ ...set, state: value("state"), updatedAt: value("updatedAt") } as PaymentChanges)
    .where(and(eq(payments.id, value("id") as string), eq(payments.state, value("fromState") as PaymentRow["state"])))
    .returning();
  const transitioned = tx.$with("transitioned", getTableColumns(payments)).as(update.getSQL());
  const recorded = tx.$with("recorded_state_change", { id: paymentStateChanges.id }).as(
    sql`insert into payment_state_changes (payment_id, service_id, from_state, to_state, cause, console_user_email, at)
        select id, service_id, ${value("fromState")}::text::payment_state, state,
          ${value("cause")}::text::state_change_cause, ${value("consoleUserEmail")}::text, updated_at
        from transitioned returning id`,
  );
  const columns = Object.fromEntries(
    Object.keys(getTableColumns(payments)).map((key) => [key, transitioned[key as keyof typeof transitioned]]),
  ) as (typeof transitioned)["_"]["selectedFields"];
  return tx.with(transitioned, recorded).select(columns).from(transitioned);
}

/**
 * The statement, built once per set of changed columns (a handful of shapes: each caller
 * changes the same columns every time). Like drizzle's `set`, an undefined change is left out;
 * a null one is written as a literal NULL, because a placeholder would pass it through the
 * column's encoder (a timestamp's throws on null, a jsonb's stores JSON null).
 */
function preparedTransition(tx: Db, changes: Record<string, unknown>) {
  const keys = Object.keys(changes).filter((key) => changes[key] !== undefined);
  const shape = keys.map((key) => (changes[key] === null ? `${key}=null` : key)).join(",");
  return preparedOn(tx, `payment_transition(${shape})`, (tx) => {
    const set = Object.fromEntries(keys.map((key) => [key, changes[key] === null ? sql`null` : sql.placeholder(key)]));
    return transitionQuery(tx, set as PaymentChanges, (name) => sql.placeholder(name)).prepare(
      `payment_transition(${shape})`,
    );
  });
}

/**
 * Moves a locked payment along `event`: checks the transition table, writes the new state
 * with `changes` conditionally on the state it was read in, records the change with its
 * `cause` on the payment's timeline, and enqueues the event's notification, all in the
 * caller's transaction.
 */
export async function applyTransition(
  tx: Db,
  options: {
    payment: PaymentRow;
    event: PaymentEvent;
    /** Who made the change: required, so every path into every state says it. */
    cause: StateChangeCause;
    changes?: PaymentChanges;
    now: Date;
    /** Amounts the notification reports with this change (capture, refund). */
    notification?: { capturedMinor?: number; refundedMinor?: number };
  },
): Promise<PaymentRow> {
  const { payment, event, now } = options;
  const to = transition(payment.state, event);
  const changes: Record<string, unknown> = options.changes ?? {};
  const values: Record<TransitionValue, unknown> = {
    id: payment.id,
    fromState: payment.state,
    state: to,
    updatedAt: now,
    ...causeColumns(options.cause),
  };
  // A change given as an SQL expression differs per call: that one is built on the spot.
  const [updated] = Object.values(changes).some((value) => is(value, SQL))
    ? await transitionQuery(tx, options.changes ?? {}, (name) => values[name])
    : await preparedTransition(tx, changes).execute({ ...changes, ...values });
  // The row is locked by the caller, so this only happens if a caller forgot the lock.
  if (!updated) throw new ApiError("invalid_state", "The payment changed while this request ran; check it again.");
  // Counted when written: a transaction that rolls back after this (rare: its later statement failed) still counted it.
  metrics.paymentStateChanges.inc({ method: updated.paymentMethodCode ?? "none", from: payment.state, to });
  await notifyPaymentChange(tx, { payment: updated, event, now, ...options.notification });
  return updated;
}
