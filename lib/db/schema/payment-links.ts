import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { services } from "./merchants";
import { captureMethod } from "./payments";

/**
 * A payment link (contract 14): one shareable page that creates an ordinary intent for each
 * buyer who presses "Continue". Its payments are the intents whose meta_data names it
 * (`paymentLinkId`); payments_link_idx finds them.
 */
export const paymentLinks = pgTable(
  "payment_links",
  {
    // `plink_` + ULID: unguessable enough to share, ordered by creation for the list's cursor.
    id: text("id").primaryKey(),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id),
    title: text("title").notNull(),
    description: text("description"),
    // A fixed amount, or null when the buyer enters one (within the optional bounds).
    amountMinor: bigint("amount_minor", { mode: "number" }),
    minAmountMinor: bigint("min_amount_minor", { mode: "number" }),
    maxAmountMinor: bigint("max_amount_minor", { mode: "number" }),
    currency: text("currency").notNull(),
    country: text("country").notNull(),
    captureMethod: captureMethod("capture_method").notNull().default("DIRECT"),
    // false: the link closes after its first successful payment.
    reusable: boolean("reusable").notNull().default(true),
    // Set by deactivate; a deactivated link never takes a payment again.
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    locale: text("locale").notNull(),
    // Copied into every intent the link creates, beside paymentLinkId.
    metaData: jsonb("meta_data"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("payment_links_service_idx").on(table.serviceId, table.createdAt, table.id),
    check(
      "payment_links_amounts_positive",
      sql.join(
        [
          sql`coalesce(${table.amountMinor}, 1) > 0`,
          sql`coalesce(${table.minAmountMinor}, 1) > 0`,
          sql`coalesce(${table.maxAmountMinor}, 1) > 0`,
        ],
        sql` AND `,
      ),
    ),
    check(
      "payment_links_fixed_or_bounded",
      sql`${table.amountMinor} IS NULL OR (${table.minAmountMinor} IS NULL AND ${table.maxAmountMinor} IS NULL)`,
    ),
    check(
      "payment_links_bounds_ordered",
      sql.join(
        [
          sql`${table.minAmountMinor} IS NULL`,
          sql`${table.maxAmountMinor} IS NULL`,
          sql`${table.minAmountMinor} <= ${table.maxAmountMinor}`,
        ],
        sql` OR `,
      ),
    ),
    check("payment_links_locale", sql`${table.locale} IN ('en', 'fr', 'ar')`),
  ],
);
