import { index, integer, jsonb, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { services } from "./merchants";

export const notificationStatus = pgEnum("notification_status", ["pending", "delivered", "abandoned"]);

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
    payload: jsonb("payload").notNull(),
    status: notificationStatus("status").notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (table) => [
    index("notifications_due_idx").on(table.status, table.nextAttemptAt),
    index("notifications_service_idx").on(table.serviceId, table.createdAt),
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
    responseStatus: integer("response_status"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("notification_attempts_notification_idx").on(table.notificationId)],
);
