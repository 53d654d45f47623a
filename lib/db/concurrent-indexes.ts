import { readMigrationFiles } from "drizzle-orm/migrator";
import type { Sql } from "postgres";

// `CREATE [UNIQUE] INDEX IF NOT EXISTS "name" ON "table" ...`, after any leading comment lines.
const INDEX_STATEMENT = /^(?:\s*--[^\n]*\n)*\s*CREATE (UNIQUE )?INDEX IF NOT EXISTS "(\w+)" ON "(\w+)"([\s\S]*)$/;

export interface PendingIndex {
  name: string;
  table: string;
  /** The statement with CONCURRENTLY, runnable outside a transaction. */
  concurrently: string;
}

/**
 * The indexes the pending migrations create with IF NOT EXISTS on tables that already exist.
 * Pending as drizzle's migrator judges it: a migration newer than the last one recorded.
 */
export async function pendingIndexes(sql: Sql, migrationsFolder: string): Promise<PendingIndex[]> {
  const [journal] = await sql<
    { table: string | null }[]
  >`select to_regclass('drizzle.__drizzle_migrations')::text as table`;
  if (!journal?.table) return [];
  const [last] = await sql<
    { at: string | null }[]
  >`select max(created_at)::text as at from drizzle.__drizzle_migrations`;
  const lastApplied = Number(last?.at ?? 0);
  const found: PendingIndex[] = [];
  for (const migration of readMigrationFiles({ migrationsFolder })) {
    if (migration.folderMillis <= lastApplied) continue;
    for (const statement of migration.sql) {
      const match = INDEX_STATEMENT.exec(statement);
      if (!match) continue;
      const [, unique = "", name, table, rest] = match;
      const definition = rest!.trimEnd().replace(/;$/, "");
      found.push({
        name: name!,
        table: table!,
        concurrently: `CREATE ${unique}INDEX CONCURRENTLY IF NOT EXISTS "${name}" ON "${table}"${definition}`,
      });
    }
  }
  return found;
}

/**
 * Before drizzle's migrator (which runs every pending migration in one transaction, where a plain
 * CREATE INDEX holds the table's writes until it is built): builds the pending migrations' indexes
 * CONCURRENTLY, so writes go on while they build and the migration's own IF NOT EXISTS finds them
 * made. An index on a table or column the migration itself creates is left to the migration (a
 * new table is empty). A build interrupted earlier leaves an invalid index: it is dropped and
 * built again. PostgreSQL only; PGlite has one connection and nothing to keep writing.
 */
export async function buildPendingIndexesConcurrently(
  sql: Sql,
  migrationsFolder: string,
  log: (line: string) => void = () => {},
): Promise<string[]> {
  const built: string[] = [];
  for (const index of await pendingIndexes(sql, migrationsFolder)) {
    const [table] = await sql<{ oid: string | null }[]>`select to_regclass(${`public.${index.table}`})::text as oid`;
    if (!table?.oid) continue;
    const [existing] = await sql<{ valid: boolean }[]>`
      select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
      where c.relname = ${index.name}`;
    if (existing?.valid) continue;
    if (existing) await sql.unsafe(`DROP INDEX CONCURRENTLY IF EXISTS "${index.name}"`);
    const started = performance.now();
    try {
      await sql.unsafe(index.concurrently);
    } catch {
      // The pending migration itself may be what the index needs (a column it adds, rows it
      // dedupes before a UNIQUE index, a function it creates): leave the index to the migration,
      // dropping what the failed build left behind, so the next start does not retry it forever.
      await sql.unsafe(`DROP INDEX CONCURRENTLY IF EXISTS "${index.name}"`);
      continue;
    }
    built.push(index.name);
    log(`built index ${index.name} concurrently in ${Math.round(performance.now() - started)} ms`);
  }
  return built;
}
