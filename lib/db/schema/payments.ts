import { sql } from "drizzle-orm";
import { bigint, check, index, jsonb, pgEnum, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { customers } from "./customers";
import { services } from "./merchants";

/** The interface's payment states (the one list); lib/payments/core/payment-state.ts holds their rules. */
export const paymentState = pgEnum("payment_state", [
  "CREATED",
  "PROCESSING",
  "REQUIRES_ACTION",
  "PRE_AUTHORIZED",
  "SUCCEEDED",
  "FAILED",
  "CANCELED",
  "REFUNDED",
  "PARTIALLY_REFUNDED",
]);

export const captureMethod = pgEnum("capture_method", ["DIRECT", "RESERVATION"]);
export const transactionType = pgEnum("transaction_type", ["QR_CODE"]);

export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id),
    // The merchant's transaction id; create is idempotent on (service, actionId).
    actionId: text("action_id").notNull(),
    // SHA-256 of the create parameters: the same actionId with other parameters is a conflict.
    requestFingerprint: text("request_fingerprint").notNull(),
    state: paymentState("state").notNull().default("CREATED"),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    country: text("country").notNull(),
    captureMethod: captureMethod("capture_method").notNull().default("DIRECT"),
    transactionType: transactionType("transaction_type"),
    paymentMethodCode: text("payment_method_code"),
    // Sums of payment_captures and payment_refunds, written in the statement that inserts
    // each row, so the CHECKs below can hold the invariants the rows alone cannot.
    capturedMinor: bigint("captured_minor", { mode: "number" }).notNull().default(0),
    refundedMinor: bigint("refunded_minor", { mode: "number" }).notNull().default(0),
    // Human-readable provider description of the last change (proceed/check `status`).
    status: text("status").notNull().default("Payment created"),
    failureReason: text("failure_reason"),
    platform: text("platform"),
    locale: text("locale"),
    // Where a card flow sends the buyer back; null for the wallet.
    redirectUrl: text("redirect_url"),
    providerReference: text("provider_reference"),
    providerOrderId: text("provider_order_id"),
    // What a QR wallet reports (check's microServiceTransactionId and approvalCode), kept on the
    // payment so check stays one read.
    providerTransactionId: text("provider_transaction_id"),
    approvalCode: text("approval_code"),
    metaData: jsonb("meta_data"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    // When the funds were reserved: the 7-day automatic release counts from here.
    authorizedAt: timestamp("authorized_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique("payments_service_action_unique").on(table.serviceId, table.actionId),
    check("payments_amount_positive", sql`${table.amountMinor} > 0`),
    check("payments_currency_format", sql`${table.currency} ~ '^[A-Z]{3}$'`),
    check("payments_country_format", sql`${table.country} ~ '^[A-Z]{3}$'`),
    check(
      "payments_captured_within_amount",
      sql`${table.capturedMinor} >= 0 AND ${table.capturedMinor} <= ${table.amountMinor}`,
    ),
    check(
      "payments_refunded_within_captured",
      sql`${table.refundedMinor} >= 0 AND ${table.refundedMinor} <= ${table.capturedMinor}`,
    ),
    // The expiry sweep and the 7-day release scan only the states they act on.
    index("payments_open_expiry_idx")
      .on(table.expiresAt)
      .where(sql`${table.state} IN ('CREATED', 'PROCESSING', 'REQUIRES_ACTION')`),
    index("payments_reserved_idx")
      .on(table.authorizedAt)
      .where(sql`${table.state} = 'PRE_AUTHORIZED'`),
    // A payment link's payments (contract 14): the intents its page created name it in meta_data.
    index("payments_link_idx")
      .on(table.serviceId, sql`(${table.metaData} ->> 'paymentLinkId')`)
      .where(sql`${table.metaData} ? 'paymentLinkId'`),
    // The console's lists use payments_service_created_idx: (service_id, created_at, id), read
    // backwards for newest first, INCLUDE the filters' columns so a filter is judged in the index.
    // drizzle cannot say INCLUDE: it lives in the hand-written migration after this one's.
    // The console home's figures use payments_service_created_money_idx: (service_id, created_at)
    // INCLUDE the columns it sums, read from the index alone; hand-written migration too (INCLUDE).
    // A customer's payments newest first (read backwards): the phone search and the customer page.
    index("payments_customer_created_idx").on(table.customerId, table.createdAt, table.id),
    // A filter that matches few of a service's payments (a status, a method or a currency the
    // merchant rarely sees, an amount) walks its own range newest first, not the whole service's.
    // (One status: payments_service_state_created_idx, INCLUDE the other filters' columns, in the
    // hand-written migration too.)
    index("payments_service_method_created_idx").on(
      table.serviceId,
      table.transactionType,
      table.paymentMethodCode,
      table.createdAt,
      table.id,
    ),
    index("payments_service_currency_created_idx").on(table.serviceId, table.currency, table.createdAt, table.id),
    index("payments_service_amount_idx").on(table.serviceId, table.amountMinor, table.createdAt, table.id),
  ],
);

/** One row per capture; the payment's captured_minor is their sum. */
export const paymentCaptures = pgTable(
  "payment_captures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    // The part of the reservation returned to the wallet with this capture.
    releasedMinor: bigint("released_minor", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("payment_captures_payment_idx").on(table.paymentId),
    check("payment_captures_amount_positive", sql`${table.amountMinor} > 0 AND ${table.releasedMinor} >= 0`),
  ],
);

/** One row per refund; the payment's refunded_minor is their sum. */
export const paymentRefunds = pgTable(
  "payment_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    description: text("description").notNull(),
    reason: text("reason"),
    providerReference: text("provider_reference"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("payment_refunds_payment_idx").on(table.paymentId),
    check("payment_refunds_amount_positive", sql`${table.amountMinor} > 0`),
  ],
);

/** Who made a payment's state change (contract section 13's timeline). */
export const stateChangeCause = pgEnum("state_change_cause", ["api", "buyer", "system", "console"]);

/**
 * One row per state a payment took, creation included (from_state null), written by the very
 * statement that makes the change (lib/payments/core/apply-transition.ts, insert-intent.ts), so
 * the console's timeline is read, never reconstructed. `at` is the service's clock.
 */
export const paymentStateChanges = pgTable(
  "payment_state_changes",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    serviceId: uuid("service_id").notNull(),
    fromState: paymentState("from_state"),
    toState: paymentState("to_state").notNull(),
    cause: stateChangeCause("cause").notNull(),
    // The console user who made it; only for cause `console`.
    consoleUserEmail: text("console_user_email"),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("payment_state_changes_payment_idx").on(table.paymentId, table.at, table.id),
    check(
      "payment_state_changes_console_email",
      sql`(${table.cause} = 'console') = (${table.consoleUserEmail} IS NOT NULL)`,
    ),
  ],
);
