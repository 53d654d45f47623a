import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";

type Rows = Record<string, unknown>[];
const rowsOf = (result: unknown): Rows => (Array.isArray(result) ? result : (result as { rows: Rows }).rows);

// A gateway table by its bare name, a simulator's as simulators.<name>.
const tableNamed = (name: string) =>
  sql.join(
    name.split(".").map((part) => sql.identifier(part)),
    sql.raw("."),
  );

/**
 * Every place in the gateway's tables where one of `secrets` appears verbatim: each row of
 * each table in the public schema and the simulators' schema, rendered as JSON text, so a new table or column is
 * covered without this helper knowing about it.
 */
export async function findStoredPlaintext(secrets: string[]): Promise<{ table: string; secret: string }[]> {
  const db = await getDb();
  const tables = rowsOf(
    await db.execute(
      sql`select table_schema, table_name from information_schema.tables
          where table_schema in ('public', 'simulators') and table_type = 'BASE TABLE'
            and table_name <> '__drizzle_migrations'`,
    ),
  ).map((row) =>
    row.table_schema === "public" ? String(row.table_name) : `${String(row.table_schema)}.${String(row.table_name)}`,
  );
  const found: { table: string; secret: string }[] = [];
  for (const table of tables) {
    const rows = rowsOf(await db.execute(sql`select row_to_json(t)::text as row from ${tableNamed(table)} t`));
    for (const { row } of rows) {
      for (const secret of secrets) if (String(row).includes(secret)) found.push({ table, secret: secret.slice(0, 8) });
    }
  }
  return found;
}
