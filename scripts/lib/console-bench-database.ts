import postgres from "postgres";
import { openDatabase } from "../../lib/db/client";
import { createSimulatorTables } from "../../lib/db/simulator-tables";
import { recreateDatabase } from "./recreate-database";
import { BIG_SERVICE_CODE, seedPayments } from "./seed-payments";

/** The console benchmark's data set: 1,000,000 payments over 50 merchants, one holding half. */
export const CONSOLE_BENCH_SEED = { payments: 1_000_000, merchants: 50, bigShare: 0.5, spreadDays: 365 };

/**
 * Seeds the benchmark's own database once and reuses it: a database that already holds the big
 * merchant's payments is kept (migrations still run, so a new index arrives), unless `reseed`.
 * VACUUM ANALYZE afterwards, as a live database's autovacuum would have it: statistics for the
 * planner and a visibility map that lets the list read its ids from the index alone.
 */
export async function ensureConsoleBenchDatabase(
  url: string,
  options: { reseed?: boolean; payments?: number; log?: (line: string) => void },
) {
  const log = options.log ?? (() => undefined);
  const seed = { ...CONSOLE_BENCH_SEED, ...(options.payments ? { payments: options.payments } : {}) };
  if (!options.reseed && (await seededPayments(url)) === seed.payments) {
    await migrateBenchDatabase(url);
    log(`reusing ${url.replace(/\/\/[^@]*@/, "//")}: ${seed.payments} payments already seeded`);
    return;
  }
  await recreateDatabase(url);
  await migrateBenchDatabase(url);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const started = performance.now();
    await seedPayments(sql, seed);
    log(
      `seeded ${seed.payments} payments over ${seed.merchants} merchants ` +
        `in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    const vacuumed = performance.now();
    await sql`vacuum analyze`;
    log(`vacuum analyze in ${((performance.now() - vacuumed) / 1000).toFixed(0)} s`);
  } finally {
    await sql.end();
  }
}

/** The gateway's tables and, since the seed writes the sandbox simulators' books beside them, the simulators'. */
async function migrateBenchDatabase(url: string) {
  const handle = await openDatabase({ databaseUrl: url, pgliteDir: "" });
  try {
    await createSimulatorTables(handle);
  } finally {
    await handle.close();
  }
}

async function seededPayments(url: string): Promise<number | null> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    const [row] = await sql<{ n: string }[]>`select count(*) as n from payments`;
    const [big] = await sql`select 1 from services where code = ${BIG_SERVICE_CODE}`;
    return big ? Number(row?.n ?? 0) : null;
  } catch {
    return null;
  } finally {
    await sql.end();
  }
}
