import path from "node:path";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { getDb } from "../db/client";
import { sqlRows } from "../db/sql-rows";

export interface Readiness {
  ready: boolean;
  checks: { database: "ok" | "unreachable"; migrations: "ok" | "pending" | "unknown" };
}

const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");
const DATABASE_TIMEOUT_MS = 2_000;

/**
 * Ready (contract 12): the database answers within DATABASE_TIMEOUT_MS and every migration
 * this build ships is recorded as applied. Says nothing about merchants or payments. A migration
 * is known by its time (the journal's `when`), as drizzle's migrator knows it, not by its text's
 * hash: 0009 and 0010 gained IF NOT EXISTS after release (lib/db/concurrent-indexes.ts), and a
 * database that applied their first text is as migrated.
 */
export async function checkReadiness(): Promise<Readiness> {
  const expected = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((migration) =>
    String(migration.folderMillis),
  );
  let applied: Set<string>;
  try {
    applied = await withTimeout(appliedMigrationTimes(), DATABASE_TIMEOUT_MS);
  } catch {
    return { ready: false, checks: { database: "unreachable", migrations: "unknown" } };
  }
  const allApplied = expected.every((time) => applied.has(time));
  return { ready: allApplied, checks: { database: "ok", migrations: allApplied ? "ok" : "pending" } };
}

async function appliedMigrationTimes(): Promise<Set<string>> {
  const db = await getDb();
  const rows = sqlRows<{ at: string }>(
    await db.execute(sql`select created_at::text as at from drizzle.__drizzle_migrations`),
  );
  return new Set(rows.map((row) => row.at));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
