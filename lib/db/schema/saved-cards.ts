import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { customers } from "./customers";
import { services } from "./merchants";
import { payments } from "./payments";

/**
 * A customer's card kept for later payments: what the provider's token says about it, never
 * the number or CVC. Deleting only marks the row, so past payments keep their reference.
 */
export const savedCards = pgTable(
  "saved_cards",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id),
    paymentMethodCode: text("payment_method_code").notNull().default("CARD_PROVIDER"),
    // The provider's payment method id (`pm_...`): what a later payment charges.
    providerPaymentMethodId: text("provider_payment_method_id").notNull().unique(),
    brand: text("brand").notNull(),
    last4: text("last4").notNull(),
    expMonth: integer("exp_month"),
    expYear: integer("exp_year"),
    // The provider's fingerprint: the same card saved twice is one saved card.
    fingerprint: text("fingerprint").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (table) => [
    check("saved_cards_last4", sql`${table.last4} ~ '^[0-9]{4}$'`),
    check("saved_cards_exp_month", sql`${table.expMonth} IS NULL OR ${table.expMonth} BETWEEN 1 AND 12`),
    check("saved_cards_exp_year", sql`${table.expYear} IS NULL OR ${table.expYear} BETWEEN 2000 AND 2199`),
    // One live saved card per physical card and customer, however many payments save it.
    uniqueIndex("saved_cards_customer_fingerprint_unique")
      .on(table.customerId, table.fingerprint)
      .where(sql`${table.deletedAt} IS NULL`),
    index("saved_cards_customer_order_idx").on(table.customerId, table.lastUsedAt, table.createdAt),
  ],
);

/**
 * The card side of a CARD_PROVIDER payment: its provider intent, the saved card the merchant
 * preselected at proceed, and the saved card the payment used or created once finalized.
 */
export const cardPayments = pgTable(
  "card_payments",
  {
    paymentId: uuid("payment_id")
      .primaryKey()
      .references(() => payments.id),
    providerIntentId: text("provider_intent_id").notNull().unique(),
    preselectedCardId: uuid("preselected_card_id").references(() => savedCards.id),
    providerPaymentMethodId: text("provider_payment_method_id"),
    savedCardId: uuid("saved_card_id").references(() => savedCards.id),
    finalizedAt: timestamp("finalized_at", { withTimezone: true }),
    // What the console shows and searches (brand and last 4 of the card that paid); never the number.
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("card_payments_last4", sql`${table.cardLast4} IS NULL OR ${table.cardLast4} ~ '^[0-9]{4}$'`),
    // The console's last-4 search: never a scan of the card payments.
    index("card_payments_last4_idx").on(table.cardLast4, table.paymentId),
  ],
);
