import { sql } from "drizzle-orm";
import { bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const tenants = pgTable("tenants", {
  id: uuid("id").primaryKey().defaultRandom(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const services = pgTable(
  "services",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    code: text("code").notNull().unique(),
    name: text("name").notNull(),
    // ISO 3166-1 alpha-3; each enables WALLET_V2 and CARD_PROVIDER there.
    countries: text("countries").array().notNull(),
    redirectUrl: text("redirect_url"),
    webhookUrl: text("webhook_url"),
    // AES-GCM under the gateway secret: signing needs the plaintext, so a hash cannot serve.
    webhookSecretEncrypted: text("webhook_secret_encrypted").notNull(),
    allowedOrigins: text("allowed_origins")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    cardProviderPublishableKey: text("card_provider_publishable_key").notNull(),
    // The IANA zone the console shows its times in (contract 13); null: its first country's
    // (lib/merchants/merchant-time-zone.ts), so a merchant that never chose one follows its countries.
    timeZone: text("time_zone"),
    // Sandbox clock: every time rule of this service reads now() + this offset.
    clockOffsetSeconds: integer("clock_offset_seconds").notNull().default(0),
    // The merchant's terms of payment (https), linked by the checkbox of the SATIM hosted page.
    termsUrl: text("terms_url"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("services_countries_not_empty", sql`cardinality(${table.countries}) > 0`)],
);

export const apiCredentials = pgTable(
  "api_credentials",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id),
    clientId: text("client_id").notNull().unique(),
    clientSecretHash: text("client_secret_hash").notNull(),
    // Browser-safe by design, so kept readable for `merchant list`.
    publishableKey: text("publishable_key").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    secretRotatedAt: timestamp("secret_rotated_at", { withTimezone: true }),
  },
  (table) => [index("api_credentials_service_idx").on(table.serviceId)],
);

// Sandbox only: the generated gateway secret shared by every instance on one database.
// Production reads GATEWAY_SECRET from the environment and never writes this table.
export const sandboxSettings = pgTable("sandbox_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

// Sandbox only: what the demo merchant's own webhook receiver got, the newest few, in the
// database so every gateway process on it shows the same list.
export const demoWebhookReceipts = pgTable("demo_webhook_receipts", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  webhookId: text("webhook_id"),
  signatureValid: boolean("signature_valid").notNull(),
  body: jsonb("body").notNull(),
});
