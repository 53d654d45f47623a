import { eq, sql } from "drizzle-orm";
import type { Db } from "./client";
import { prepared, preparedOn } from "./prepared";
import { payments, services } from "./schema";

export type PaymentRow = typeof payments.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** PostgreSQL refuses a malformed uuid with an error; an id that cannot exist is simply unknown. */
export function isPaymentId(value: string): boolean {
  return UUID.test(value);
}

const paymentByIdQuery = (db: Db) =>
  prepared(db, "payment_by_id", (db) =>
    db
      .select()
      .from(payments)
      .where(eq(payments.id, sql.placeholder("id")))
      .prepare("payment_by_id"),
  );

// Built once (preparedOn): every state change and every proceed locks its payment with these.
const lockPaymentQuery = (tx: Db) =>
  preparedOn(tx, "payment_lock", (tx) =>
    tx
      .select()
      .from(payments)
      .where(eq(payments.id, sql.placeholder("id")))
      .for("update")
      .prepare("payment_lock"),
  );

const lockPaymentWithServiceQuery = (tx: Db) =>
  preparedOn(tx, "payment_lock_with_service", (tx) =>
    tx
      .select({ payment: payments, service: { clockOffsetSeconds: services.clockOffsetSeconds } })
      .from(payments)
      .innerJoin(services, eq(services.id, payments.serviceId))
      .where(eq(payments.id, sql.placeholder("id")))
      .for("update", { of: payments })
      .prepare("payment_lock_with_service"),
  );

/** One prepared round trip; callers scope the row to their principal. */
export async function findPayment(db: Db, paymentId: string): Promise<PaymentRow | null> {
  if (!isPaymentId(paymentId)) return null;
  const [row] = await paymentByIdQuery(db).execute({ id: paymentId });
  return row ?? null;
}

/** Inside a transaction: the row, locked until commit, so one state change runs at a time. */
export async function lockPayment(tx: Db, paymentId: string): Promise<PaymentRow | null> {
  if (!isPaymentId(paymentId)) return null;
  const [row] = await lockPaymentQuery(tx).execute({ id: paymentId });
  return row ?? null;
}

/** The locked payment with the service facts a call without a principal (hosted pages) needs. */
export async function lockPaymentWithService(tx: Db, paymentId: string) {
  if (!isPaymentId(paymentId)) return null;
  const [row] = await lockPaymentWithServiceQuery(tx).execute({ id: paymentId });
  return row ?? null;
}
