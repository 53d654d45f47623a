import { mkdirSync } from "node:fs";
import type { Db } from "../db/client";
import { lockPgliteDirectory } from "../db/pglite-lock";
import * as schema from "../db/schema";

/**
 * Opens a gateway database for reading only: unlike `openDatabase` it applies no migration, so
 * auditing a database never changes it. One connection is enough (the audit is sequential).
 */
export async function openAuditDatabase(options: {
  databaseUrl?: string;
  pgliteDir: string;
}): Promise<{ db: Db; close(): Promise<void> }> {
  if (options.databaseUrl) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(options.databaseUrl, { max: 1, onnotice: () => {} });
    return { db: drizzle({ client, schema }) as unknown as Db, close: () => client.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  mkdirSync(options.pgliteDir, { recursive: true });
  const unlock = lockPgliteDirectory(options.pgliteDir);
  const client = new PGlite(options.pgliteDir);
  return {
    db: drizzle({ client, schema }) as unknown as Db,
    close: async () => {
      await client.close();
      unlock();
    },
  };
}
