import path from "node:path";
import type { MigrationConfig } from "drizzle-orm/migrator";

/**
 * The simulators' tables (the Stripe simulator's and the sandbox wallet's books): the schema
 * `simulators`, migrated apart from the gateway's tables, from simulators/drizzle, and recorded in
 * a migrations table of their own. Only a process that runs a simulator applies them: a sandbox
 * gateway (lib/db/client.ts, after the seal), `npm run card-simulator`, `npm run wallet-sandbox`
 * and the tests; a production database never gets them. Named here by folder, not imported:
 * production code never imports a simulator.
 */
export const SIMULATOR_MIGRATIONS: MigrationConfig = {
  migrationsFolder: path.join(process.cwd(), "simulators", "drizzle"),
  migrationsSchema: "simulators",
  migrationsTable: "__drizzle_migrations",
};

export async function createSimulatorTables(database: {
  migrate(config: MigrationConfig): Promise<void>;
}): Promise<void> {
  await database.migrate(SIMULATOR_MIGRATIONS);
}
