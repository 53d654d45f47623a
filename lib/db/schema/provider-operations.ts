import { sql } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { ProviderName } from "../../payment-methods/declarations/method-declarations";
import { payments } from "./payments";

/**
 * pending: recorded, the provider may or may not have been called yet; unknown: the call failed
 * or timed out, so the provider may or may not have applied it; succeeded / failed: settled.
 */
export const providerOperationStatus = pgEnum("provider_operation_status", [
  "pending",
  "unknown",
  "succeeded",
  "failed",
]);

/**
 * One money-moving provider call (lib/provider-operations). Recorded in the transaction that
 * locks and validates the payment, called after that commits, settled in a second transaction.
 * The id is the idempotency key the provider receives, so asking again can never apply twice.
 */
export const providerOperations = pgTable(
  "provider_operations",
  {
    id: text("id").primaryKey(),
    paymentId: uuid("payment_id").references(() => payments.id),
    // Which provider the operation calls (PROVIDER_NAMES): text, so a new redirect provider needs no migration.
    provider: text("provider").$type<ProviderName>().notNull(),
    // The handler's kind: one of PROVIDER_OPERATION_KINDS[provider] (lib/provider-operations).
    kind: text("kind").notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }),
    // What the provider call needs besides the key (e.g. the provider intent id); never card data.
    request: jsonb("request").$type<Record<string, unknown>>().notNull().default({}),
    status: providerOperationStatus("status").notNull().default("pending"),
    providerReference: text("provider_reference"),
    // The provider's failure code, or what settling produced (e.g. the refund row id).
    resultCode: text("result_code"),
    result: jsonb("result").$type<Record<string, unknown>>(),
    attempts: integer("attempts").notNull().default(0),
    // When reconciliation may next ask the provider (a live request owns the operation until then).
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (table) => [
    // Part of the payment's lock: at most one unsettled capture, release or charge per payment.
    // Refunds reserve their amount instead (lib/provider-operations), so several may be open.
    uniqueIndex("provider_operations_one_open_exclusive_per_payment")
      .on(table.paymentId)
      .where(sql`${table.status} IN ('pending', 'unknown') AND ${table.kind} <> 'refund'`),
    index("provider_operations_open_refunds_idx")
      .on(table.paymentId)
      .where(sql`${table.status} IN ('pending', 'unknown') AND ${table.kind} = 'refund'`),
    index("provider_operations_open_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.status} IN ('pending', 'unknown')`),
  ],
);
