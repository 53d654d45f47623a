import type { TestProject } from "vitest/node";
import { recreateDatabase } from "../../scripts/lib/recreate-database";
import { allWorkerDatabaseUrls } from "./worker-database";

/**
 * The suite runs on PostgreSQL, on databases it recreates so each run starts from the
 * committed migrations: DATABASE_URL for the first worker and a sibling for each other one
 * (tests/support/worker-database.ts). Without DATABASE_URL it uses databases of its own on the
 * local server (named after this run, dropped at the end), so parallel runs never collide.
 * PGlite, the embedded driver, has its own test (tests/integration/pglite-driver.test.ts).
 * At the end the ledger audit checks every one of them and fails the run on any violation
 * (tests/support/suite-audit.ts).
 */
export default async function setup(project: TestProject) {
  const ephemeral = !process.env.DATABASE_URL;
  if (ephemeral) process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:5432/gateway_test_${process.pid}`;
  // The workers derive their database from this one (tests/support/setup-env.ts).
  process.env.SUITE_DATABASE_URL = process.env.DATABASE_URL!;
  const urls = allWorkerDatabaseUrls(process.env.DATABASE_URL!, project.config.maxWorkers);
  await Promise.all(urls.map((url) => recreateDatabase(url)));
  return async () => {
    // Imported here, once LOG_LEVEL is set: the gateway's loggers take their level when loaded,
    // and the audit's delivery pass would otherwise log every failed attempt.
    process.env.LOG_LEVEL ??= "silent";
    const { auditSuiteDatabase } = await import("./suite-audit");
    const failures: unknown[] = [];
    try {
      // One at a time: each audit reads its whole database.
      for (const url of urls) await auditSuiteDatabase(url).catch((error: unknown) => failures.push(error));
    } finally {
      if (ephemeral) await Promise.all(urls.map((url) => recreateDatabase(url, { dropOnly: true })));
    }
    if (failures.length > 0) throw failures[0];
  };
}
