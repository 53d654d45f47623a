import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sqlRows } from "../../db/sql-rows";
import { customers } from "../../db/schema";
import { phoneNumbersOf } from "../../geo/typed-phone";

export interface CustomerSearchRow {
  id: string;
  name: string;
  phone: string;
  email: string | null;
  isActive: boolean;
  createdAt: Date;
}

export const CUSTOMERS_SHOWN = 25;

/** A LIKE pattern matching what begins with `text`, its own wildcards taken literally. */
const startsWith = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The console's customer search (contract 13): by phone in any form a person types it (the
 * national form of the merchant's `countries` too: lib/geo/typed-phone.ts), or by the beginning
 * of the name or of the email, case-insensitive, within one service. Each reading is an index
 * lookup (the phone's unique index; lower(name) and lower(email) with text_pattern_ops); at most
 * 25 customers, by name.
 */
export async function searchCustomers(
  db: Db,
  options: { serviceId: string; query: string; countries?: readonly string[] },
): Promise<CustomerSearchRow[]> {
  const queries = customerSearchQueries(db, options);
  if (queries.length === 0) return [];
  // One round trip: each reading's lookup, side by side.
  const found = sqlRows<Omit<CustomerSearchRow, "createdAt"> & { createdAt: string | Date }>(
    await db.execute(
      sql.join(
        queries.map((query) => sql`${query}`),
        sql` union all `,
      ),
    ),
  ).map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
  const unique = [...new Map(found.map((row) => [row.id, row])).values()];
  return unique.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)).slice(0, CUSTOMERS_SHOWN);
}

/**
 * The search's statements, one per reading of the text (none for an empty search). Exported for the
 * benchmark's EXPLAIN.
 */
export function customerSearchQueries(
  db: Db,
  options: { serviceId: string; query: string; countries?: readonly string[] },
) {
  const text = options.query.trim();
  if (text === "") return [];
  const phones = phoneNumbersOf(text, options.countries ?? []);
  // Aliased as the row's fields: the union is read raw (sqlRows), without drizzle's mapping.
  const columns = {
    id: customers.id,
    name: customers.name,
    phone: customers.phone,
    email: customers.email,
    isActive: sql<boolean>`${customers.isActive}`.as("isActive"),
    createdAt: sql<Date>`${customers.createdAt}`.as("createdAt"),
  };
  const byName = db
    .select(columns)
    .from(customers)
    .where(and(eq(customers.serviceId, options.serviceId), sql`lower(${customers.name}) like ${startsWith(text)}`))
    .orderBy(sql`lower(${customers.name})`)
    .limit(CUSTOMERS_SHOWN);
  const byEmail = db
    .select(columns)
    .from(customers)
    .where(and(eq(customers.serviceId, options.serviceId), sql`lower(${customers.email}) like ${startsWith(text)}`))
    .orderBy(sql`lower(${customers.email})`)
    .limit(CUSTOMERS_SHOWN);
  const byPhone =
    phones.length > 0
      ? db
          .select(columns)
          .from(customers)
          .where(and(eq(customers.serviceId, options.serviceId), inArray(customers.phone, phones)))
      : null;
  return byPhone ? [byPhone, byName, byEmail] : [byName, byEmail];
}
