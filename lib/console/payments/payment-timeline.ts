import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { paymentStateChanges } from "../../db/schema";
import type { PaymentState } from "../../payments/core/payment-state";
import { consoleCause, type StateChangeCause } from "../../payments/core/state-change-cause";

export interface TimelineEntry {
  /** On the service's clock, as the change was made. */
  at: Date;
  /** Null for the creation. */
  from: PaymentState | null;
  to: PaymentState;
  cause: StateChangeCause;
}

/**
 * Every state the payment took, oldest first, with who made each change: read from the rows the
 * changes wrote (payment_state_changes), never inferred. The caller has scoped the payment to
 * its service (a payment of another service has no business being asked for).
 */
export async function listPaymentTimeline(db: Db, options: { paymentId: string }): Promise<TimelineEntry[]> {
  const rows = await db
    .select()
    .from(paymentStateChanges)
    .where(eq(paymentStateChanges.paymentId, options.paymentId))
    .orderBy(asc(paymentStateChanges.at), asc(paymentStateChanges.id));
  return rows.map(timelineEntryOf);
}

type TimelineRow = Pick<
  typeof paymentStateChanges.$inferSelect,
  "at" | "fromState" | "toState" | "cause" | "consoleUserEmail"
>;

export function timelineEntryOf(row: TimelineRow): TimelineEntry {
  return { at: row.at, from: row.fromState, to: row.toState, cause: causeOf(row) };
}

function causeOf(row: TimelineRow): StateChangeCause {
  switch (row.cause) {
    case "api":
    case "buyer":
    case "system":
      return { kind: row.cause };
    case "console":
      return consoleCause(row.consoleUserEmail ?? "");
  }
}
