import { bigserial, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Contract 13: who did what in the console, append-only. No foreign keys: an entry outlives the
 * user or merchant it names, and keeps the email as it was. A trigger (migration
 * console_audit_log_append_only) refuses UPDATE, DELETE and TRUNCATE.
 */
export const consoleAuditLog = pgTable(
  "console_audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    userId: uuid("user_id"),
    userEmail: text("user_email").notNull(),
    serviceId: uuid("service_id"),
    action: text("action").notNull(),
    target: text("target"),
    ip: text("ip"),
  },
  (table) => [index("console_audit_log_service_idx").on(table.serviceId, table.at)],
);
