import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { cardPayments, customers, payments } from "../../db/schema";
import { encodePaymentCursor, type PaymentCursor } from "./payment-cursor";
import { paymentListConditions } from "./payment-list-conditions";
import type { PaymentListQuery } from "./payment-list-filters";
import { toPaymentListRow, type PaymentListRow } from "./payment-list-row";

/** Contract 13: 25 a page. */
export const PAYMENTS_PAGE_SIZE = 25;

export interface PaymentListPage {
  rows: PaymentListRow[];
  /** The cursor of the next (older) page, null on the last one. */
  after: string | null;
  /** The cursor of the previous (newer) page, null on the first one. */
  before: string | null;
}

/** A list row's columns besides its time and amount (the export writes those its own way), in this order. */
export const paymentRowColumns = {
  id: payments.id,
  actionId: payments.actionId,
  currency: payments.currency,
  state: payments.state,
  paymentMethodCode: payments.paymentMethodCode,
  transactionType: payments.transactionType,
  cardBrand: cardPayments.cardBrand,
  cardLast4: cardPayments.cardLast4,
  customerPhone: customers.phone,
  capturedMinor: payments.capturedMinor,
  refundedMinor: payments.refundedMinor,
  customerName: customers.name,
};

/** The creation time in microseconds, PostgreSQL's own precision, for the keyset. */
export const createdAtMicros = sql<string>`(extract(epoch from ${payments.createdAt}) * 1000000)::bigint::text`;

/** SQL: the row is older than the cursor's (`after`) or newer (`before`); ties on the time go by id. */
export function beyondCursor(direction: "after" | "before", cursor: PaymentCursor): SQL {
  const at = sql`(to_timestamp(0) + ${cursor.createdAtMicros}::bigint * interval '1 microsecond')`;
  return direction === "after"
    ? sql`(${payments.createdAt}, ${payments.id}) < (${at}, ${cursor.id}::uuid)`
    : sql`(${payments.createdAt}, ${payments.id}) > (${at}, ${cursor.id}::uuid)`;
}

/**
 * The page's statement: its ids are found in payments_service_created_idx alone (read
 * backwards, filters judged on its included columns); only those rows are then read with their
 * customer's phone and card. Exported for the benchmark's EXPLAIN.
 */
export function paymentPageQuery(db: Db, options: { serviceId: string; query: PaymentListQuery; pageSize?: number }) {
  const size = options.pageSize ?? PAYMENTS_PAGE_SIZE;
  const { filters, cursor } = options.query;
  const newerFirst = cursor?.direction !== "before";
  const page = db
    .select({ id: payments.id, createdAt: payments.createdAt, micros: createdAtMicros.as("micros") })
    .from(payments)
    .where(
      and(
        paymentListConditions(options.serviceId, filters),
        cursor ? beyondCursor(cursor.direction, cursor.at) : undefined,
      ),
    )
    .orderBy(
      ...(newerFirst ? [desc(payments.createdAt), desc(payments.id)] : [asc(payments.createdAt), asc(payments.id)]),
    )
    .limit(size + 1)
    .as("page");
  return db
    .select({
      micros: page.micros,
      createdAt: payments.createdAt,
      amountMinor: payments.amountMinor,
      ...paymentRowColumns,
    })
    .from(page)
    .innerJoin(payments, eq(payments.id, page.id))
    .innerJoin(customers, eq(customers.id, payments.customerId))
    .leftJoin(cardPayments, eq(cardPayments.paymentId, payments.id))
    .orderBy(...(newerFirst ? [desc(page.createdAt), desc(page.id)] : [asc(page.createdAt), asc(page.id)]));
}

/**
 * One page of a service's payments, newest first, by keyset (never OFFSET): the 100th page
 * costs what the first does.
 */
export async function listPayments(
  db: Db,
  options: { serviceId: string; query: PaymentListQuery; pageSize?: number },
): Promise<PaymentListPage> {
  const size = options.pageSize ?? PAYMENTS_PAGE_SIZE;
  const newerFirst = options.query.cursor?.direction !== "before";
  const cursor = options.query.cursor;
  const fetched = await paymentPageQuery(db, options);
  const more = fetched.length > size;
  const shown = newerFirst ? fetched.slice(0, size) : fetched.slice(0, size).reverse();
  const cursorOf = (row: (typeof fetched)[number] | undefined) =>
    row ? encodePaymentCursor({ createdAtMicros: row.micros, id: row.id }) : null;
  const first = shown[0];
  const last = shown.at(-1);
  return {
    rows: shown.map(toPaymentListRow),
    after: newerFirst ? (more ? cursorOf(last) : null) : cursorOf(last),
    before: newerFirst ? (cursor ? cursorOf(first) : null) : more ? cursorOf(first) : null,
  };
}
