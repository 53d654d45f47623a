import path from "node:path";
import { mkdirSync } from "node:fs";
import type { MigrationConfig } from "drizzle-orm/migrator";
import type { Sql } from "postgres";
import type { Db } from "./db-type";
import { adoptEnvironment, getConfig } from "../config";
import { buildPendingIndexesConcurrently } from "./concurrent-indexes";
import { sealOrCheckDatabase } from "./database-seal";
import { markTransactions } from "./transaction-guard";
import { installDriverSocketGuard } from "./driver-socket-guard";
import { lockPgliteDirectory } from "./pglite-lock";
import { countPoolUse } from "./pool-usage";
import { createSimulatorTables } from "./simulator-tables";
import * as schema from "./schema";

// Here too, where every query module has always taken them from.
export type { Db, Schema } from "./db-type";

export interface DatabaseHandle {
  db: Db;
  driver: "postgres" | "pglite";
  /** Applies a folder of migrations other than the gateway's (the simulators' tables), as the gateway's are. */
  migrate(config: MigrationConfig): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");
// Serializes migrations when several gateway processes start on one PostgreSQL.
const MIGRATION_LOCK_ID = 724_104_2026;

/**
 * Polls for the migration lock instead of blocking on it: a `pg_advisory_lock` waiting in its
 * statement holds a snapshot, which the lock holder's `CREATE INDEX CONCURRENTLY` (concurrent-
 * indexes.ts) waits out, while the waiter waits for the holder: PostgreSQL would abort one of two
 * gateways starting together with "deadlock detected".
 */
async function takeMigrationLock(migrator: Sql): Promise<void> {
  for (;;) {
    const [row] = await migrator<{ locked: boolean }[]>`select pg_try_advisory_lock(${MIGRATION_LOCK_ID}) as locked`;
    if (row?.locked) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

type QueryListener = (query: string) => void;
const queryListeners = new Set<QueryListener>();
/** The option objects of the open postgres.js pools, whose `debug` hook follows the listeners. */
const driverOptions = new Set<{ debug?: unknown }>();

/** Test hook: sees every statement sent to the server, to count round trips. */
export function onQuery(listener: QueryListener): () => void {
  queryListeners.add(listener);
  syncDriverDebug();
  return () => {
    queryListeners.delete(listener);
    syncDriverDebug();
  };
}

function notifyQuery(query: string) {
  for (const listener of queryListeners) listener(query);
}

const driverDebug = (_connection: number, query: string) => notifyQuery(query);

/**
 * postgres.js calls `options.debug` for every statement it sends, but a pool created with
 * `debug` set also captures a new Error (a stack trace) for every query it builds, about a
 * twentieth of a check's CPU. So pools start without it and the hook is set on their (shared,
 * live) options object only while someone listens: tests and benchmarks that count statements.
 */
function syncDriverDebug() {
  for (const options of driverOptions) options.debug = queryListeners.size > 0 ? driverDebug : false;
}

export async function openDatabase(options: {
  databaseUrl?: string;
  pgliteDir: string;
  /** PostgreSQL connections (DATABASE_POOL_SIZE); 10 when not given. */
  poolSize?: number;
  /** False: the gateway's migrations are not applied (a simulator's own database, lib/db/simulator-tables.ts). */
  gatewayTables?: boolean;
}): Promise<DatabaseHandle> {
  const gatewayTables = options.gatewayTables ?? true;
  if (options.databaseUrl) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    installDriverSocketGuard();
    const sql = postgres(options.databaseUrl, {
      max: options.poolSize ?? 10,
      onnotice: () => {},
      // postgres.js prepares every parameterized statement once per connection.
      prepare: true,
    });
    const poolOptions = sql.options as { debug?: unknown };
    driverOptions.add(poolOptions);
    syncDriverDebug();
    const stopCounting = countPoolUse(sql, options.poolSize ?? 10);
    const db = markTransactions(drizzle({ client: sql, schema }) as unknown as Db);
    const databaseUrl = options.databaseUrl;
    // indexesConcurrently: the gateway's own history, whose indexes on big tables are built
    // CONCURRENTLY first (concurrent-indexes.ts); the simulators' small books need no such step.
    const migrateLocked = async (config: MigrationConfig, { indexesConcurrently = false } = {}) => {
      // A connection of its own for the lock and the migrations: a reserved one of the pool
      // would leave a pool of one (DATABASE_POOL_SIZE=1) nothing to migrate with, and hang. No
      // lifetime limit: the driver would close it, and so release the lock, after half an hour.
      const migrator = postgres(databaseUrl, { max: 1, max_lifetime: null, onnotice: () => {} });
      try {
        await takeMigrationLock(migrator);
        if (indexesConcurrently) await buildPendingIndexesConcurrently(migrator, config.migrationsFolder);
        await migrate(drizzle({ client: migrator, schema }), config);
      } finally {
        // Ending the session releases the lock too, should the unlock itself fail.
        await migrator`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.catch(() => {});
        await migrator.end({ timeout: 5 });
      }
    };
    try {
      if (gatewayTables) await migrateLocked({ migrationsFolder: MIGRATIONS_FOLDER }, { indexesConcurrently: true });
    } catch (error) {
      driverOptions.delete(poolOptions);
      stopCounting();
      await sql.end({ timeout: 5 });
      throw error;
    }
    return {
      db,
      driver: "postgres",
      migrate: migrateLocked,
      close: async () => {
        driverOptions.delete(poolOptions);
        stopCounting();
        await sql.end({ timeout: 5 });
      },
    };
  }

  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const inMemory = options.pgliteDir.startsWith("memory://");
  let unlock = () => {};
  if (!inMemory) {
    mkdirSync(options.pgliteDir, { recursive: true });
    unlock = lockPgliteDirectory(options.pgliteDir);
  }
  const client = new PGlite(inMemory ? undefined : options.pgliteDir);
  const db = drizzle({ client, schema, logger: { logQuery: (query) => notifyQuery(query) } });
  if (gatewayTables) await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    db: markTransactions(db as unknown as Db),
    driver: "pglite",
    migrate: (config) => migrate(db, config),
    close: async () => {
      await client.close();
      unlock();
    },
  };
}

// One handle per process, kept on globalThis so Next's dev reloads reuse it: PGlite
// allows a single open instance per data directory.
const globalForDb = globalThis as unknown as { gatewayDatabase?: Promise<DatabaseHandle> };

/**
 * The process's database, migrated and checked against its seal (lib/db/database-seal.ts): a
 * database of the other environment or sealed with another gateway secret is refused here,
 * before anything reads or writes it. `environmentFromDatabase` (the merchant CLI): without
 * APP_ENV, take the environment the database was sealed with rather than the default.
 */
export function getDatabase(options: { environmentFromDatabase?: boolean } = {}): Promise<DatabaseHandle> {
  if (!globalForDb.gatewayDatabase) {
    const config = getConfig();
    const adopt = options.environmentFromDatabase && !config.appEnvGiven ? adoptEnvironment : undefined;
    const opening = openDatabase({
      databaseUrl: config.DATABASE_URL,
      pgliteDir: config.PGLITE_DIR,
      poolSize: config.DATABASE_POOL_SIZE,
    }).then(async (handle) => {
      try {
        const running = await sealOrCheckDatabase(
          handle.db,
          { environment: config.APP_ENV, gatewaySecret: config.GATEWAY_SECRET },
          {
            adopt: adopt
              ? (environment) => {
                  const adopted = adopt(environment);
                  return { environment: adopted.APP_ENV, gatewaySecret: adopted.GATEWAY_SECRET };
                }
              : undefined,
          },
        );
        // A sandbox gateway hosts both simulators in its process (mount-simulators.ts):
        // their tables too, once the seal has shown this is no production database.
        if (running.environment === "sandbox") await createSimulatorTables(handle);
        return handle;
      } catch (error) {
        await handle.close();
        throw error;
      }
    });
    opening.catch(() => {
      if (globalForDb.gatewayDatabase === opening) globalForDb.gatewayDatabase = undefined;
    });
    globalForDb.gatewayDatabase = opening;
  }
  return globalForDb.gatewayDatabase;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

export async function closeDatabase(): Promise<void> {
  const opening = globalForDb.gatewayDatabase;
  globalForDb.gatewayDatabase = undefined;
  if (opening) await (await opening).close();
}
