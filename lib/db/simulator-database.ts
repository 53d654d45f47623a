import { sql } from "drizzle-orm";
import { openDatabase, type DatabaseHandle, type Db } from "./client";
import { readDatabaseSeal } from "./database-seal";
import { createSimulatorTables } from "./simulator-tables";
import { sqlRows } from "./sql-rows";

/** A simulator pointed at a gateway's database (sealed, lib/db/database-seal.ts): it refuses to start. */
export class GatewayDatabaseError extends Error {}

/**
 * A simulator's own database (`npm run card-simulator`, `npm run wallet-sandbox`): opened without
 * the gateway's migrations, refused when it is a gateway's (sealed, in either environment: the
 * simulator would write its books, and the card simulator its secret, into it), then given the
 * simulators' tables. `settings` names what chooses the database, for the refusal's message.
 */
export async function openSimulatorDatabase(options: {
  databaseUrl?: string;
  pgliteDir: string;
  settings: string;
  simulator: string;
}): Promise<DatabaseHandle> {
  const database = await openDatabase({
    databaseUrl: options.databaseUrl,
    pgliteDir: options.pgliteDir,
    gatewayTables: false,
  });
  try {
    if (await isSealed(database.db))
      throw new GatewayDatabaseError(
        `${options.settings} is a gateway's database: give the ${options.simulator} a database of its own.`,
      );
    await createSimulatorTables(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** A database with no seal table (a simulator's own, never migrated as a gateway's) is no gateway's. */
async function isSealed(db: Db): Promise<boolean> {
  const [found] = sqlRows<{ exists: boolean }>(
    await db.execute(sql`select to_regclass('public.database_seal') is not null as exists`),
  );
  return found?.exists === true && (await readDatabaseSeal(db)) !== undefined;
}
