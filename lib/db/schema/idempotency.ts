import { index, integer, jsonb, pgEnum, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";

export const idempotencyState = pgEnum("idempotency_state", ["in_progress", "completed"]);

/**
 * Contract section 5: one row per (caller, endpoint, Idempotency-Key). A request claims the
 * row before it runs; the operation's own transaction writes the response into it, so the
 * remembered answer and the state change commit together.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    callerKey: text("caller_key").notNull(),
    endpoint: text("endpoint").notNull(),
    key: text("key").notNull(),
    // SHA-256 of the request path and body: the same key with other parameters is a conflict.
    requestHash: text("request_hash").notNull(),
    state: idempotencyState("state").notNull().default("in_progress"),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    // A claim whose request died (crash, timeout) stops blocking retries after this.
    lockedUntil: timestamp("locked_until", { withTimezone: true }).notNull(),
    // 24 hours on the caller's service clock.
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique("idempotency_keys_scope_unique").on(table.callerKey, table.endpoint, table.key),
    index("idempotency_keys_expiry_idx").on(table.expiresAt),
  ],
);
