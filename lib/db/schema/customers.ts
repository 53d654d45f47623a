import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { services } from "./merchants";

export const customers = pgTable(
  "customers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    email: text("email"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique("customers_service_phone_unique").on(table.serviceId, table.phone),
    check("customers_phone_e164", sql`${table.phone} ~ '^\\+[0-9]{8,15}$'`),
    // The console's customer search: a name or email prefix, case-insensitive, within one service.
    index("customers_service_name_idx").on(table.serviceId, sql`lower(${table.name}) text_pattern_ops`),
    index("customers_service_email_idx").on(table.serviceId, sql`lower(${table.email}) text_pattern_ops`),
  ],
);

// One row per issued pair; a refresh rotates by marking the row and inserting the next
// one of the same family, so reuse of a rotated refresh token can revoke the family.
export const customerTokens = pgTable(
  "customer_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    familyId: uuid("family_id").notNull(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id),
    accessTokenHash: text("access_token_hash").notNull().unique(),
    refreshTokenHash: text("refresh_token_hash").notNull().unique(),
    accessExpiresAt: timestamp("access_expires_at", { withTimezone: true }).notNull(),
    refreshExpiresAt: timestamp("refresh_expires_at", { withTimezone: true }).notNull(),
    rotatedAt: timestamp("rotated_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("customer_tokens_family_idx").on(table.familyId)],
);
