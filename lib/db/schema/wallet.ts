import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgEnum, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";

/**
 * The wallet is a service of its own (lib/wallet-sandbox), which
 * may run on a database of its own: its tables name the gateway's service, customer and
 * payment ids without referencing the gateway's tables.
 *
 * The ledger: an account keeps its balance and the part of it held by
 * reservations; every change to either is an entry, so the columns always equal the sums
 * of the entries (a test checks this after every kind of operation).
 */
export const walletAccounts = pgTable(
  "wallet_accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    serviceId: uuid("service_id").notNull(),
    customerId: uuid("customer_id").notNull(),
    currency: text("currency").notNull(),
    balanceMinor: bigint("balance_minor", { mode: "number" }).notNull(),
    heldMinor: bigint("held_minor", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique("wallet_accounts_owner_unique").on(table.serviceId, table.customerId, table.currency),
    // Available = balance - held never goes negative: no overdraft, no over-reservation.
    check("wallet_accounts_held_within_balance", sql`${table.heldMinor} >= 0 AND ${table.heldMinor} <= ${table.balanceMinor}`),
  ],
);

export const walletHoldStatus = pgEnum("wallet_hold_status", ["active", "captured", "released"]);

/** A reservation's funds; one per payment. */
export const walletHolds = pgTable(
  "wallet_holds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => walletAccounts.id),
    paymentId: uuid("payment_id").notNull().unique(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    capturedMinor: bigint("captured_minor", { mode: "number" }).notNull().default(0),
    status: walletHoldStatus("status").notNull().default("active"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (table) => [
    check("wallet_holds_amounts", sql`${table.amountMinor} > 0 AND ${table.capturedMinor} >= 0 AND ${table.capturedMinor} <= ${table.amountMinor}`),
  ],
);

export const walletEntryKind = pgEnum("wallet_entry_kind", [
  "opening",
  "debit",
  "hold",
  "hold_capture",
  "hold_release",
  "refund",
]);

/** Append-only ledger: each entry moves the balance, the held amount, or both. */
export const walletEntries = pgTable(
  "wallet_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => walletAccounts.id),
    paymentId: uuid("payment_id"),
    kind: walletEntryKind("kind").notNull(),
    balanceDeltaMinor: bigint("balance_delta_minor", { mode: "number" }).notNull().default(0),
    heldDeltaMinor: bigint("held_delta_minor", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("wallet_entries_account_idx").on(table.accountId, table.createdAt),
    index("wallet_entries_payment_idx").on(table.paymentId),
  ],
);

/**
 * The OTP of one payment. The code is kept only as a salted hash; a resend replaces the
 * code and its lifetime but keeps the count of wrong attempts, which spans the payment.
 */
export const otpChallenges = pgTable(
  "otp_challenges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paymentId: uuid("payment_id").notNull().unique(),
    codeSalt: text("code_salt").notNull(),
    codeHash: text("code_hash").notNull(),
    attemptsLeft: integer("attempts_left").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    resendAvailableAt: timestamp("resend_available_at", { withTimezone: true }).notNull(),
    sentCount: integer("sent_count").notNull().default(1),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("otp_challenges_attempts", sql`${table.attemptsLeft} >= 0`)],
);

export const walletOperationStatus = pgEnum("wallet_operation_status", ["succeeded", "refused"]);

/**
 * The wallet service's memory of every money call by the gateway's idempotency key
 * (`operationId`): a repeat answers the stored outcome instead of moving money again, and
 * `GET /v1/operations/{operationId}` reads it. The primary key is what makes a call apply once.
 */
export const walletOperations = pgTable("wallet_operations", {
  operationId: text("operation_id").primaryKey(),
  kind: text("kind").notNull(),
  /** SHA-256 of the call's content: the same key with other content is a conflict. */
  requestHash: text("request_hash").notNull(),
  paymentId: uuid("payment_id").notNull(),
  status: walletOperationStatus("status").notNull(),
  /** The answer given, as the protocol's Operation object. */
  response: jsonb("response").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
