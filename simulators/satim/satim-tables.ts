import { bigint, index, text, timestamp } from "drizzle-orm/pg-core";
import { simulators } from "../db/simulators-schema";

/*
 * The SATIM simulator's own books, in the schema `simulators`: the orders merchants registered
 * (register.do) and what became of them. No key points into the gateway's tables. Never the
 * full card number or CVC: a paid order keeps the masked PAN only, as SATIM's answers show it.
 */
export const satimOrders = simulators.table(
  "satim_orders",
  {
    // SATIM's orderId ("mdOrder"): 20 characters.
    orderId: text("order_id").primaryKey(),
    userName: text("user_name").notNull(),
    orderNumber: text("order_number").notNull(),
    terminalId: text("terminal_id").notNull(),
    udf1: text("udf1").notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    language: text("language").notNull(),
    returnUrl: text("return_url").notNull(),
    failUrl: text("fail_url").notNull(),
    // SATIM's OrderStatus: 0 registered, 2 deposited, 4 refunded, 6 declined.
    orderStatus: text("order_status").notNull().default("0"),
    actionCode: text("action_code"),
    respCodeDesc: text("resp_code_desc"),
    approvalCode: text("approval_code"),
    maskedPan: text("masked_pan"),
    // A 3DS challenge the buyer has not answered yet (card ...3220): its outcome once completed.
    challenge: text("challenge"),
    refundedMinor: bigint("refunded_minor", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("satim_orders_number_idx").on(table.userName, table.orderNumber)],
);
