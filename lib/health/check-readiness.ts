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
 * this build ships is recorded as applied. Says nothing about merchants or payments.
 */
export async function checkReadiness(): Promise<Readiness> {
  const expected = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((migration) => migration.hash);
  let applied: Set<string>;
  try {
    applied = await withTimeout(appliedMigrationHashes(), DATABASE_TIMEOUT_MS);
  } catch {
    return { ready: false, checks: { database: "unreachable", migrations: "unknown" } };
  }
  const allApplied = expected.every((hash) => applied.has(hash));
  return { ready: allApplied, checks: { database: "ok", migrations: allApplied ? "ok" : "pending" } };
}

async function appliedMigrationHashes(): Promise<Set<string>> {
  const db = await getDb();
  const rows = sqlRows<{ hash: string }>(await db.execute(sql`select hash from drizzle.__drizzle_migrations`));
  return new Set(rows.map((row) => row.hash));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
