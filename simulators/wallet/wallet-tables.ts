import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { simulators } from "../db/simulators-schema";

/**
 * The sandbox wallet is a service of its own (simulators/wallet), which may run on a database
 * of its own: its tables, in the PostgreSQL schema `simulators`, name the gateway's service,
 * customer and payment ids without referencing the gateway's tables.
 *
 * The ledger: an account keeps its balance and the part of it held by
 * reservations; every change to either is an entry, so the columns always equal the sums
 * of the entries (a test checks this after every kind of operation).
 */
export const walletAccounts = simulators.table(
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
    check(
      "wallet_accounts_held_within_balance",
      sql`${table.heldMinor} >= 0 AND ${table.heldMinor} <= ${table.balanceMinor}`,
    ),
  ],
);

export const walletHoldStatus = simulators.enum("wallet_hold_status", ["active", "captured", "released"]);

/** A reservation's funds; one per payment. */
export const walletHolds = simulators.table(
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
    check(
      "wallet_holds_amounts",
      sql`${table.amountMinor} > 0 AND ${table.capturedMinor} >= 0 AND ${table.capturedMinor} <= ${table.amountMinor}`,
    ),
  ],
);

export const walletEntryKind = simulators.enum("wallet_entry_kind", [
  "opening",
  "debit",
  "hold",
  "hold_capture",
  "hold_release",
  "refund",
]);

/** Append-only ledger: each entry moves the balance, the held amount, or both. */
export const walletEntries = simulators.table(
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
export const otpChallenges = simulators.table(
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

export const walletOperationStatus = simulators.enum("wallet_operation_status", ["succeeded", "refused"]);

/**
 * The wallet service's memory of every money call by the gateway's idempotency key
 * (`operationId`): a repeat answers the stored outcome instead of moving money again, and
 * `GET /v1/operations/{operationId}` reads it. The primary key is what makes a call apply once.
 */
export const walletOperations = simulators.table("wallet_operations", {
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

/**
 * pending: shown as a QR code, not answered yet; approved: the customer confirmed and the
 * wallet paid (or reserved); declined: the customer refused in the wallet app; rejected: the
 * customer confirmed but the wallet could not cover the amount; canceled: the gateway
 * withdrew it before an answer.
 */
export const walletQrStatus = simulators.enum("wallet_qr_status", [
  "pending",
  "approved",
  "declined",
  "rejected",
  "canceled",
]);

/**
 * The sandbox wallet service's record of one QR payment request (one per payment), the way the
 * OTP challenge is its record of an OTP (simulators/wallet; the gateway knows it only through
 * the protocol). Its identifiers are what check reports in the QR case: `orderId` as
 * paymentOrderId, `id` as microServiceTransactionId, and `approvalCode`.
 */
export const walletQrRequests = simulators.table(
  "wallet_qr_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paymentId: uuid("payment_id").notNull().unique(),
    orderId: text("order_id").notNull().unique(),
    status: walletQrStatus("status").notNull().default("pending"),
    approvalCode: text("approval_code"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    // Set by the protocol's create call (simulators/wallet): what approval debits or holds,
    // under which idempotency key, and where the answer is posted. Null only on rows from
    // before QR requests went through the protocol.
    operationId: text("operation_id").unique(),
    serviceId: uuid("service_id"),
    customerId: uuid("customer_id"),
    currency: text("currency"),
    amountMinor: bigint("amount_minor", { mode: "number" }),
    captureMethod: text("capture_method"),
    callbackUrl: text("callback_url"),
    /** The debit's or hold's reference once approved. */
    reference: text("reference"),
  },
  (table) => [
    // An approval code exists exactly for an approved request; any answer has its time.
    check(
      "wallet_qr_requests_approval_code",
      sql`(${table.status} = 'approved') = (${table.approvalCode} IS NOT NULL)`,
    ),
    check("wallet_qr_requests_answered", sql`(${table.status} = 'pending') = (${table.answeredAt} IS NULL)`),
  ],
);
