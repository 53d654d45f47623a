import { bigint, index, text, timestamp } from "drizzle-orm/pg-core";
import { simulators } from "../db/simulators-schema";

/*
 * The ClicToPay simulator's own books, in the schema `simulators`: the orders merchants
 * registered (register.do, registerPreAuth.do) and what became of them. No key points into the
 * gateway's tables. Never the full card number or CVC: the masked PAN only, as ClicToPay shows it.
 */
export const clictopayOrders = simulators.table(
  "clictopay_orders",
  {
    // ClicToPay's orderId (a UUID).
    orderId: text("order_id").primaryKey(),
    userName: text("user_name").notNull(),
    orderNumber: text("order_number").notNull(),
    // register (one phase) or registerPreAuth (two phases).
    phases: text("phases").notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    language: text("language").notNull(),
    returnUrl: text("return_url").notNull(),
    failUrl: text("fail_url").notNull(),
    // The RBS orderStatus: 0 registered, 1 pre-authorized, 2 deposited, 3 reversed, 4 refunded, 6 declined.
    orderStatus: text("order_status").notNull().default("0"),
    actionCode: text("action_code"),
    actionCodeDescription: text("action_code_description"),
    approvalCode: text("approval_code"),
    maskedPan: text("masked_pan"),
    challenge: text("challenge"),
    approvedMinor: bigint("approved_minor", { mode: "number" }).notNull().default(0),
    depositedMinor: bigint("deposited_minor", { mode: "number" }).notNull().default(0),
    refundedMinor: bigint("refunded_minor", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("clictopay_orders_number_idx").on(table.userName, table.orderNumber)],
);
