import { sql } from "drizzle-orm";
import { index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { payments } from "./payments";

/**
 * The provider side of a payment of a REDIRECT method (lib/payment-methods/redirect): the order
 * registered with the provider when the buyer pressed Pay (its number, the provider's order id
 * and the provider's page), and whether the provider's outcome is settled. `finishedAt` null
 * with a provider order id: the reconciliation job still asks the provider about it (a buyer
 * who never came back, or a late completion to reverse).
 */
export const redirectPayments = pgTable(
  "redirect_payments",
  {
    paymentId: uuid("payment_id")
      .primaryKey()
      .references(() => payments.id),
    // The method's code (SATIM, ...): which provider module answers for it.
    methodCode: text("method_code").notNull(),
    // The order number sent to the provider (SATIM: at most 10 characters, unique per merchant).
    orderNumber: text("order_number"),
    providerOrderId: text("provider_order_id"),
    // The provider's payment page for this order (register.do's formUrl).
    formUrl: text("form_url"),
    registeredAt: timestamp("registered_at", { withTimezone: true }),
    lastAskedAt: timestamp("last_asked_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("redirect_payments_unfinished_idx")
      .on(table.lastAskedAt)
      .where(sql`${table.finishedAt} IS NULL AND ${table.providerOrderId} IS NOT NULL`),
  ],
);

/**
 * A merchant's credentials at a redirect method's provider, per service and method (SATIM: the
 * terminal id, user name and password its bank issued), sealed with the gateway key
 * (AES-256-GCM) like the card provider's secret keys: never stored or shown in clear.
 */
export const redirectProviderAccounts = pgTable(
  "redirect_provider_accounts",
  {
    serviceId: uuid("service_id").notNull(),
    methodCode: text("method_code").notNull(),
    settingsSealed: text("settings_sealed").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.serviceId, table.methodCode] })],
);
