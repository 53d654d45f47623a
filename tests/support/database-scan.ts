import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";

type Rows = Record<string, unknown>[];
const rowsOf = (result: unknown): Rows => (Array.isArray(result) ? result : (result as { rows: Rows }).rows);

/**
 * Every place in the gateway's tables where one of `secrets` appears verbatim: each row of
 * each table in the public schema, rendered as JSON text, so a new table or column is
 * covered without this helper knowing about it.
 */
export async function findStoredPlaintext(secrets: string[]): Promise<{ table: string; secret: string }[]> {
  const db = await getDb();
  const tables = rowsOf(
    await db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    ),
  ).map((row) => String(row.table_name));
  const found: { table: string; secret: string }[] = [];
  for (const table of tables) {
    const rows = rowsOf(await db.execute(sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t`));
    for (const { row } of rows) {
      for (const secret of secrets) if (String(row).includes(secret)) found.push({ table, secret: secret.slice(0, 8) });
    }
  }
  return found;
}
