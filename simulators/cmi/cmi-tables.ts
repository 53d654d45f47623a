import { bigint, jsonb, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { simulators } from "../db/simulators-schema";

/*
 * The CMI simulator's own books, in the schema `simulators`: the orders stores posted to its
 * 3D Pay Hosting gate and what became of them. No key points into the gateway's tables. Never
 * the full card number or CVC: the masked PAN only, as CMI shows it.
 */
export const cmiOrders = simulators.table(
  "cmi_orders",
  {
    clientId: text("client_id").notNull(),
    // The store's order number (oid), unique per store.
    oid: text("oid").notNull(),
    // PreAuth (held until PostAuth or Void) or Auth (captured at once).
    tranType: text("tran_type").notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    lang: text("lang").notNull(),
    okUrl: text("ok_url").notNull(),
    failUrl: text("fail_url").notNull(),
    callbackUrl: text("callback_url"),
    // TRANS_STAT as the order status query answers it: P on the page (no transaction yet), A pre-authorized,
    // C captured, V voided, D declined.
    status: text("status").notNull().default("P"),
    procReturnCode: text("proc_return_code"),
    errMsg: text("err_msg"),
    authCode: text("auth_code"),
    transId: text("trans_id"),
    maskedPan: text("masked_pan"),
    capturedMinor: bigint("captured_minor", { mode: "number" }).notNull().default(0),
    refundedMinor: bigint("refunded_minor", { mode: "number" }).notNull().default(0),
    // The fields the store posted (HASH left out), echoed in the callback as CMI does.
    posted: jsonb("posted").$type<Record<string, string>>().notNull(),
    // What the store answered its callbacks, in order (ACTION=POSTAUTH, APPROVED, FAILURE or the HTTP status).
    callbackAnswers: jsonb("callback_answers").$type<string[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.clientId, table.oid] })],
);
