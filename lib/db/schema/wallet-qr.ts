import { sql } from "drizzle-orm";
import { bigint, check, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * pending: shown as a QR code, not answered yet; approved: the customer confirmed and the
 * wallet paid (or reserved); declined: the customer refused in the wallet app; rejected: the
 * customer confirmed but the wallet could not cover the amount; canceled: the gateway
 * withdrew it before an answer.
 */
export const walletQrStatus = pgEnum("wallet_qr_status", ["pending", "approved", "declined", "rejected", "canceled"]);

/**
 * The sandbox wallet service's record of one QR payment request (one per payment), the way the
 * OTP challenge is its record of an OTP (lib/wallet-sandbox; the gateway knows it only through
 * the protocol). Its identifiers are what check reports in the QR case: `orderId` as
 * paymentOrderId, `id` as microServiceTransactionId, and `approvalCode`.
 */
export const walletQrRequests = pgTable(
  "wallet_qr_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paymentId: uuid("payment_id").notNull().unique(),
    orderId: text("order_id").notNull().unique(),
    status: walletQrStatus("status").notNull().default("pending"),
    approvalCode: text("approval_code"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    // Set by the protocol's create call (lib/wallet-sandbox): what approval debits or holds,
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
    check("wallet_qr_requests_approval_code", sql`(${table.status} = 'approved') = (${table.approvalCode} IS NOT NULL)`),
    check("wallet_qr_requests_answered", sql`(${table.status} = 'pending') = (${table.answeredAt} IS NULL)`),
  ],
);
