import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, text, timestamp } from "drizzle-orm/pg-core";
import { simulators } from "../db/simulators-schema";

/*
 * The Stripe simulator's own books, in the PostgreSQL schema `simulators` (created only by the
 * processes that run a simulator: simulators/db/migrate-simulator-tables.ts). They stand for a
 * system outside the gateway: no foreign key points from here into the gateway's tables or back,
 * and the gateway reads them only through the CardProvider port. Never the full card number or CVC: a payment method
 * keeps brand, last4, expiry and a keyed fingerprint, as a real provider's token would.
 */

export const cardProviderIntentStatus = simulators.enum("card_provider_intent_status", [
  "requires_payment_method",
  "requires_action",
  "requires_capture",
  "succeeded",
  "canceled",
]);

export const cardProviderCaptureMethod = simulators.enum("card_provider_capture_method", ["automatic", "manual"]);

/** A tokenized card (`pm_...`). */
export const cardProviderPaymentMethods = simulators.table(
  "card_provider_payment_methods",
  {
    id: text("id").primaryKey(),
    // The merchant account (publishable key) the card was entered for.
    accountKey: text("account_key").notNull(),
    // Set once the card is attached to a customer for later use (setup_future_usage).
    customerRef: text("customer_ref"),
    brand: text("brand").notNull(),
    last4: text("last4").notNull(),
    expMonth: integer("exp_month").notNull(),
    expYear: integer("exp_year").notNull(),
    // HMAC of the number under a provider key: the same card gives the same value, the value gives nothing back.
    fingerprint: text("fingerprint").notNull(),
    // What the sandbox does when this card is charged again (a saved 3DS test card asks again).
    testBehavior: text("test_behavior").notNull().default("succeed"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    detachedAt: timestamp("detached_at", { withTimezone: true }),
  },
  (table) => [
    check("card_provider_pm_last4", sql`${table.last4} ~ '^[0-9]{4}$'`),
    check("card_provider_pm_exp", sql`${table.expMonth} BETWEEN 1 AND 12 AND ${table.expYear} BETWEEN 2000 AND 2199`),
    index("card_provider_pm_customer_idx").on(table.customerRef),
  ],
);

/** A provider payment intent (`pi_...`): one attempt to take money from a card. */
export const cardProviderPaymentIntents = simulators.table(
  "card_provider_payment_intents",
  {
    id: text("id").primaryKey(),
    accountKey: text("account_key").notNull(),
    // The merchant's idempotency key for creation: a retried create returns the same intent.
    idempotencyKey: text("idempotency_key").notNull().unique(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    captureMethod: cardProviderCaptureMethod("capture_method").notNull(),
    status: cardProviderIntentStatus("status").notNull().default("requires_payment_method"),
    customerRef: text("customer_ref"),
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull().default({}),
    paymentMethodId: text("payment_method_id").references(() => cardProviderPaymentMethods.id),
    setupFutureUsage: boolean("setup_future_usage").notNull().default(false),
    amountCapturableMinor: bigint("amount_capturable_minor", { mode: "number" }).notNull().default(0),
    amountReceivedMinor: bigint("amount_received_minor", { mode: "number" }).notNull().default(0),
    amountRefundedMinor: bigint("amount_refunded_minor", { mode: "number" }).notNull().default(0),
    // Why the last attempt failed: card_declined, insufficient_funds, authentication_failed.
    lastErrorCode: text("last_error_code"),
    // Where the 3DS challenge sends the buyer back (the gateway's own origin only).
    returnUrl: text("return_url"),
    locale: text("locale"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("card_provider_pi_amount_positive", sql`${table.amountMinor} > 0`),
    check(
      "card_provider_pi_amounts",
      sql`${table.amountCapturableMinor} >= 0 AND ${table.amountCapturableMinor} <= ${table.amountMinor}
        AND ${table.amountReceivedMinor} >= 0 AND ${table.amountReceivedMinor} <= ${table.amountMinor}
        AND ${table.amountRefundedMinor} >= 0 AND ${table.amountRefundedMinor} <= ${table.amountReceivedMinor}`,
    ),
  ],
);

/** A refund (`re_...`) of part or all of a provider intent's received amount. */
export const cardProviderRefunds = simulators.table(
  "card_provider_refunds",
  {
    id: text("id").primaryKey(),
    paymentIntentId: text("payment_intent_id")
      .notNull()
      .references(() => cardProviderPaymentIntents.id),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("card_provider_refund_positive", sql`${table.amountMinor} > 0`),
    index("card_provider_refunds_pi_idx").on(table.paymentIntentId),
  ],
);

/** Events the provider sends to the gateway's inbound endpoint (`evt_...`), kept for redelivery. */
export const cardProviderEvents = simulators.table(
  "card_provider_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    paymentIntentId: text("payment_intent_id")
      .notNull()
      .references(() => cardProviderPaymentIntents.id),
    payload: jsonb("payload").notNull(),
    attempts: integer("attempts").notNull().default(0),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("card_provider_events_pending_idx")
      .on(table.createdAt)
      .where(sql`${table.deliveredAt} IS NULL`),
  ],
);

/**
 * What the provider answered to a POST with an idempotency key: the same key gets the same answer, never a
 * second change.
 */
export const cardProviderIdempotencyKeys = simulators.table("card_provider_idempotency_keys", {
  key: text("key").primaryKey(),
  operation: text("operation").notNull(),
  response: jsonb("response").$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The card simulator's own secret when it runs as a process of its own (`npm run card-simulator`):
 * its keys and signatures derive from it, and it is kept here so they hold across restarts. A
 * simulator's database has no gateway tables to keep it in; in a sandbox gateway the simulator
 * uses the gateway's key instead, and this table stays empty.
 */
export const cardSimulatorSettings = simulators.table("card_simulator_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
