import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { services } from "./merchants";

/** Interface "Payment method item": IN_SDK renders inline, REDIRECT hands off to a hosted page. */
export const paymentMethodArchetype = pgEnum("payment_method_archetype", ["IN_SDK", "REDIRECT"]);

/**
 * Which payment methods a service offers in which country (alpha-3), seeded at onboarding:
 * every country given enables WALLET_V2 and CARD_PROVIDER (contract section 9).
 */
export const paymentMethodCatalog = pgTable(
  "payment_method_catalog",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id),
    country: text("country").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    // Localized display names by language (en, fr, ar); English is the fallback.
    displayNames: jsonb("display_names").$type<Record<string, string>>().notNull(),
    // A path under the public base URL, e.g. /payment-methods/card.svg.
    imagePath: text("image_path").notNull(),
    archetype: paymentMethodArchetype("archetype"),
    // Tenant-specific label overriding displayName; only present when configured.
    label: text("label"),
    enabled: boolean("enabled").notNull().default(true),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique("payment_method_catalog_unique").on(table.serviceId, table.country, table.code),
    check("payment_method_catalog_country", sql`${table.country} ~ '^[A-Z]{3}$'`),
    index("payment_method_catalog_lookup_idx").on(table.serviceId, table.country, table.position),
  ],
);
