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
    check("payments_captured_within_amount", sql`${table.capturedMinor} >= 0 AND ${table.capturedMinor} <= ${table.amountMinor}`),
    check("payments_refunded_within_captured", sql`${table.refundedMinor} >= 0 AND ${table.refundedMinor} <= ${table.capturedMinor}`),
    // The expiry sweep and the 7-day release scan only the states they act on.
    index("payments_open_expiry_idx")
      .on(table.expiresAt)
      .where(sql`${table.state} IN ('CREATED', 'PROCESSING', 'REQUIRES_ACTION')`),
    index("payments_reserved_idx").on(table.authorizedAt).where(sql`${table.state} = 'PRE_AUTHORIZED'`),
    index("payments_customer_idx").on(table.customerId),
    // A payment link's payments (contract 14): the intents its page created name it in meta_data.
    index("payments_link_idx")
      .on(table.serviceId, sql`(${table.metaData} ->> 'paymentLinkId')`)
      .where(sql`${table.metaData} ? 'paymentLinkId'`),
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
