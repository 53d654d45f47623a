import { sql } from "drizzle-orm";
import { boolean, check, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// Which environment a gateway database belongs to and which gateway secret it was sealed with
// (a fingerprint, never the secret): one row, written by the first gateway process that starts
// on the database and checked by every later one (lib/db/database-seal.ts).
export const databaseSeal = pgTable(
  "database_seal",
  {
    only: boolean("only").primaryKey().default(true),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    secretFingerprint: text("secret_fingerprint").notNull(),
    sealedAt: timestamp("sealed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("database_seal_one_row", sql`${table.only}`),
    check("database_seal_environment", sql`${table.environment} in ('sandbox', 'production')`),
  ],
);
