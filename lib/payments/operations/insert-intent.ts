import { and, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { customers, payments, paymentStateChanges } from "../../db/schema";
import type { PaymentRow } from "../../db/payment-record";
import { causeColumns, type StateChangeCause } from "../core/state-change-cause";

/** What create writes; the fingerprint makes a repeat with other parameters a conflict. */
export interface IntentInsert {
  serviceId: string;
  phone: string;
  actionId: string;
  requestFingerprint: string;
  amountMinor: number;
  currency: string;
  country: string;
  captureMethod: "DIRECT" | "RESERVATION";
  transactionType: "QR_CODE" | null;
  metaData: unknown;
  expiresAt: Date;
  now: Date;
  /** Who creates it (the API; a payment link's page for the buyer): the first line of its timeline. */
  cause: StateChangeCause;
}

export interface IntentInsertResult {
  customerActive: boolean;
  /** The new intent; null when the customer is deactivated or the actionId was taken. */
  created: PaymentRow | null;
  /** The intent that already had this actionId when the statement began, if any. */
  existing: PaymentRow | null;
}

const existingPayment = alias(payments, "existing_payment");

// Customer upsert and intent insert as ONE statement (data-modifying CTEs), prepared once per
// connection under its name. The customer of `userId` is created on first sight (interface:
// explicit registration is optional). The outer select runs on the statement's snapshot:
// it sees an intent committed before the statement began (a repeat: no second round trip) but
// not one a concurrent create committed while this insert waited on it (the caller reads it).
const insertIntentQuery = (db: Db) =>
  prepared(db, "payment_intent_insert", (db) => {
    const p = (name: Exclude<keyof IntentInsert, "cause">) => sql.placeholder(name);
    const { customer, created, createdChange, createdColumns } = intentInsertCtes(db, {
      serviceId: sql`${p("serviceId")}::uuid`,
      expiresAt: sql`${p("expiresAt")}::text::timestamptz`,
      now: sql`${p("now")}::text::timestamptz`,
    });
    return db
      .with(customer, created, createdChange)
      .select({ customerActive: customer.isActive, created: createdColumns, existing: existingPayment })
      .from(customer)
      .leftJoin(created, sql`true`)
      .leftJoin(
        existingPayment,
        and(
          eq(existingPayment.serviceId, sql`${p("serviceId")}::uuid`),
          eq(existingPayment.actionId, sql`${p("actionId")}::text`),
        ),
      )
      .prepare("payment_intent_insert");
  });

/**
 * The customer upsert (created on first sight; the no-op update makes its row come back either
 * way) and the intent insert (nothing for a deactivated customer or a taken actionId) as CTEs,
 * with the body's fields as placeholders. `serviceId`, `expiresAt` and `now` are SQL that may
 * read `from` (a CTE both select from), and `where` gates the customer and so the intent too.
 */
export function intentInsertCtes(
  db: Db,
  options: { serviceId: SQL; expiresAt: SQL; now: SQL; from?: SQL; where?: SQL },
) {
  const p = (name: Exclude<keyof IntentInsert, "cause">) => sql.placeholder(name);
  const { serviceId, from, where } = options;
  const customer = db.$with("intent_customer", { id: customers.id, isActive: customers.isActive }).as(
    sql`insert into customers (service_id, name, phone)
        select ${serviceId}, ${p("phone")}::text, ${p("phone")}::text
        ${from ? sql`from ${from}` : sql``} ${where ? sql`where ${where}` : sql``}
        on conflict (service_id, phone) do update set updated_at = customers.updated_at
        returning id, is_active`,
  );
  const created = db.$with("created_intent", getTableColumns(payments)).as(
    sql`insert into payments (service_id, customer_id, action_id, request_fingerprint, amount_minor, currency, country,
          capture_method, transaction_type, meta_data, expires_at, updated_at)
        select ${serviceId}, intent_customer.id, ${p("actionId")}::text, ${p("requestFingerprint")}::text,
          ${p("amountMinor")}::bigint, ${p("currency")}::text, ${p("country")}::text,
          ${p("captureMethod")}::text::capture_method, ${p("transactionType")}::text::transaction_type,
          ${p("metaData")}::text::jsonb, ${options.expiresAt}, ${options.now}
        from ${from ? sql`${from}, ` : sql``}intent_customer where intent_customer.is_active
        on conflict (service_id, action_id) do nothing
        returning *`,
  );
  // The intent's creation, the first line of its timeline (nothing when no intent was inserted).
  const createdChange = db.$with("created_intent_change", { id: paymentStateChanges.id }).as(
    sql`insert into payment_state_changes (payment_id, service_id, from_state, to_state, cause, console_user_email, at)
        select id, service_id, null, state, ${sql.placeholder("cause")}::text::state_change_cause,
          ${sql.placeholder("consoleUserEmail")}::text, created_at
        from created_intent returning id`,
  );
  // The CTE's columns as a nested object: left-joined, it comes back null when nothing was inserted.
  const createdColumns = Object.fromEntries(
    Object.keys(getTableColumns(payments)).map((key) => [key, created[key as keyof typeof created]]),
  ) as (typeof created)["_"]["selectedFields"];
  return { customer, created, createdChange, createdColumns };
}

/** One round trip: the customer (created on first sight) and the intent, or the one already there. */
export async function insertIntent(db: Db, values: IntentInsert): Promise<IntentInsertResult> {
  const { cause, ...insert } = values;
  const [row] = await insertIntentQuery(db).execute({
    ...insert,
    ...causeColumns(cause),
    metaData: values.metaData === null || values.metaData === undefined ? null : JSON.stringify(values.metaData),
    expiresAt: values.expiresAt.toISOString(),
    now: values.now.toISOString(),
  });
  if (!row) throw new Error("customer could not be resolved");
  return { customerActive: row.customerActive, created: row.created ?? null, existing: row.existing ?? null };
}
