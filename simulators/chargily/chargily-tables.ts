import { bigint, jsonb, text, timestamp } from "drizzle-orm/pg-core";
import { simulators } from "../db/simulators-schema";

/*
 * The Chargily Pay simulator's own books, in the schema `simulators`: the checkouts merchants
 * created (POST /checkouts) and what became of them. No key points into the gateway's tables.
 * Never a card number: Chargily's checkout object carries none either.
 */
export const chargilyCheckouts = simulators.table("chargily_checkouts", {
  // Chargily's checkout id (a 26-character ULID in its answers).
  id: text("id").primaryKey(),
  // The merchant's key (the simulator has one merchant; kept to answer 404 to another key).
  secretKey: text("secret_key").notNull(),
  livemode: text("livemode").notNull().default("false"),
  // Whole dinars, as Chargily counts them.
  amount: bigint("amount", { mode: "number" }).notNull(),
  currency: text("currency").notNull(),
  locale: text("locale").notNull(),
  description: text("description"),
  successUrl: text("success_url").notNull(),
  failureUrl: text("failure_url"),
  webhookEndpoint: text("webhook_endpoint"),
  metadata: jsonb("metadata").$type<Record<string, unknown>>(),
  // pending, paid, failed, canceled, expired.
  status: text("status").notNull().default("pending"),
  // edahabia or cib: the card the buyer paid with.
  paymentMethod: text("payment_method"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
