// `npx tsx scripts/audit-seed.ts --database-url <url> [--payments 100000]`: recreates the named
// database, migrates it, and fills it directly with SQL with payments as the gateway leaves
// them (scripts/lib/seed-payments.ts: wallet debits, reservations held, captured in part and
// released, partial and full refunds, failures, card payments with the provider's books, one
// event per state change, delivered with their attempts), then times `runAudit` on it. For
// measuring the audit only.
import { parseArgs } from "node:util";
import postgres from "postgres";
import { formatAuditReport, runAudit } from "../lib/audit/run-audit";
import { openAuditDatabase } from "../lib/audit/open-audit-database";
import { openDatabase } from "../lib/db/client";
import { createSimulatorTables } from "../lib/db/simulator-tables";
import { recreateDatabase } from "./lib/recreate-database";
import { seedPayments } from "./lib/seed-payments";

const { values } = parseArgs({
  options: { "database-url": { type: "string" }, payments: { type: "string", default: "100000" } },
});
const url = values["database-url"];
if (!url) throw new Error("--database-url is required (a database this script may drop and recreate)");
const count = Number(values.payments);

await recreateDatabase(url);
// The gateway's tables and the simulators' (the seed writes the sandbox wallet's and card simulator's books too).
const migrated = await openDatabase({ databaseUrl: url, pgliteDir: "" });
await createSimulatorTables(migrated);
await migrated.close();
const sql = postgres(url, { max: 1, onnotice: () => {} });
const seedStarted = performance.now();
await seedPayments(sql, { payments: count });
const seedMs = performance.now() - seedStarted;
await sql`analyze`;
await sql.end();

const handle = await openAuditDatabase({ databaseUrl: url, pgliteDir: "" });
try {
  for (const run of [1, 2]) {
    const report = await runAudit(handle.db, {
      retrySchedule: [5, 300, 1800, 7200, 18000, 36000, 36000],
      deliverySlackSeconds: 120,
      reconciliationBoundSeconds: 900,
    });
    console.log(`-- audit run ${run}`);
    console.log(formatAuditReport(report));
  }
  console.log(`seeded ${count} payments in ${(seedMs / 1000).toFixed(1)} s`);
} finally {
  await handle.close();
}
