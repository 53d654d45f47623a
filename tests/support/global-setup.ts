import { recreateDatabase } from "../../scripts/lib/recreate-database";
import { auditSuiteDatabase } from "./suite-audit";

/**
 * The suite runs on PostgreSQL, on a database it recreates so each run starts from the
 * committed migrations. Without DATABASE_URL it uses a database of its own on the local
 * server (named after this run, dropped at the end), so parallel runs never collide.
 * PGlite, the embedded driver, has its own test (tests/integration/pglite-driver.test.ts).
 * At the end the ledger audit checks that database and fails the run on any violation
 * (tests/support/suite-audit.ts).
 */
export default async function setup() {
  const ephemeral = !process.env.DATABASE_URL;
  if (ephemeral) process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:5432/gateway_test_${process.pid}`;
  const url = process.env.DATABASE_URL!;
  await recreateDatabase(url);
  return async () => {
    try {
      await auditSuiteDatabase(url);
    } finally {
      if (ephemeral) await recreateDatabase(url, { dropOnly: true });
    }
  };
}
