import { primaryKey, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/*
 * The gateway's side of the card provider (Stripe): each merchant's account keys and the
 * provider-side customer of each gateway customer. The Stripe simulator's own books are not
 * here: they live in the schema `simulators` (simulators/card/card-tables.ts).
 */

/**
 * A merchant's account at the card provider (Stripe), per service and country: the
 * publishable key the hosted page uses, and the secret key and webhook signing secret, both
 * sealed with the gateway key (AES-256-GCM), never stored or shown in clear.
 */
export const cardProviderAccounts = pgTable(
  "card_provider_accounts",
  {
    serviceId: text("service_id").notNull(),
    country: text("country").notNull(),
    publishableKey: text("publishable_key").notNull(),
    secretKeySealed: text("secret_key_sealed").notNull(),
    webhookSecretSealed: text("webhook_secret_sealed").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.serviceId, table.country] })],
);

/** The provider-side customer (`cus_...`) of a gateway customer in one account, created once. */
export const cardProviderCustomers = pgTable(
  "card_provider_customers",
  {
    serviceId: text("service_id").notNull(),
    country: text("country").notNull(),
    customerId: text("customer_id").notNull(),
    providerCustomerId: text("provider_customer_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.serviceId, table.country, table.customerId] })],
);
