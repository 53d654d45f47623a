import { sql } from "drizzle-orm";
import { check, index, integer, json, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { services } from "./merchants";

/**
 * pending: waiting for its next attempt (or leased to a worker); delivered: a 2xx came back;
 * abandoned: every attempt of the retry schedule failed; undeliverable: the service had no
 * webhook URL when the notification came due, so nothing was sent.
 */
export const notificationStatus = pgEnum("notification_status", ["pending", "delivered", "abandoned", "undeliverable"]);

/**
 * The outbox: a state change inserts its notification in the same transaction, and the
 * delivery worker sends it later. `id` is the Standard Webhooks `webhook-id`, kept by retries.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id),
    paymentId: uuid("payment_id"),
    type: text("type").notNull(),
    // json, not jsonb: the body keeps the exact text and key order it was written with,
    // so every retry sends (and signs) the same bytes.
    payload: json("payload").notNull(),
    status: notificationStatus("status").notNull().default("pending"),
    // Attempts started so far; also the fencing token a worker's result must match.
    attemptCount: integer("attempt_count").notNull().default(0),
    // When the next attempt is due. A claim moves it to the end of the lease, so an item whose
    // worker died comes due again by itself.
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    // Set while a worker holds the item; still set at the next claim means that attempt was cut off.
    leasedUntil: timestamp("leased_until", { withTimezone: true }),
    // The worker (host:pid) holding the lease, so a cut-off attempt names who dropped it.
    leasedBy: text("leased_by"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (table) => [
    // The worker's claim scans only what is still to send.
    index("notifications_due_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index("notifications_service_idx").on(table.serviceId, table.createdAt),
    // Events API: one payment's events, newest first; and the 30-day purge.
    index("notifications_service_payment_idx").on(table.serviceId, table.paymentId, table.createdAt),
    index("notifications_created_idx").on(table.createdAt),
    // The console home's failing webhooks use notifications_failing_idx (service_id, created_at)
    // WHERE abandoned or retried, built in the hand-written migration console_home_money_index.
    check("notifications_attempt_count_not_negative", sql`${table.attemptCount} >= 0`),
    check(
      "notifications_delivered_has_time",
      sql`(${table.status} = 'delivered') = (${table.deliveredAt} IS NOT NULL)`,
    ),
  ],
);

/** One row per delivery attempt, for the sandbox listing and for support. */
export const notificationAttempts = pgTable(
  "notification_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    notificationId: text("notification_id")
      .notNull()
      .references(() => notifications.id),
    attemptNumber: integer("attempt_number").notNull(),
    // Null when no HTTP answer came back (refused address, connection error, timeout).
    responseStatus: integer("response_status"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    // host:pid of the worker that sent it; for support, never shown to merchants.
    workerId: text("worker_id"),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One attempt number is sent by one worker only.
    uniqueIndex("notification_attempts_number_idx").on(table.notificationId, table.attemptNumber),
    check("notification_attempts_number_positive", sql`${table.attemptNumber} >= 1`),
  ],
);
