// `npm run audit [-- --slack <s> --reconciliation-bound <s> --max <n>]`: checks every money and
// state invariant of a gateway database (DATABASE_URL, or the PGlite directory PGLITE_DIR) and
// prints each violation with its payment id; exits 1 on any. It only reads (no migration).
import { parseArgs } from "node:util";
import { ConfigError, getConfig } from "../lib/config";
import { checkDatabaseSeal, DatabaseSealError } from "../lib/db/database-seal";
import { formatAuditReport, runAudit } from "../lib/audit/run-audit";
import { openAuditDatabase } from "../lib/audit/open-audit-database";

async function main() {
  const { values } = parseArgs({
    options: {
      slack: { type: "string", default: "120" },
      "reconciliation-bound": { type: "string" },
      max: { type: "string", default: "100" },
    },
  });
  const config = getConfig();
  const handle = await openAuditDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: config.PGLITE_DIR });
  try {
    await checkDatabaseSeal(handle.db, { environment: config.APP_ENV, gatewaySecret: config.GATEWAY_SECRET });
    const report = await runAudit(handle.db, {
      retrySchedule: config.WEBHOOK_RETRY_SCHEDULE,
      deliverySlackSeconds: Number(values.slack),
      reconciliationBoundSeconds: Number(
        values["reconciliation-bound"] ?? config.PROVIDER_RECONCILIATION_BOUND_SECONDS,
      ),
    });
    console.log(formatAuditReport(report, { maxPerInvariant: Number(values.max) }));
    process.exitCode = report.violationCount === 0 ? 0 : 1;
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof DatabaseSealError ? error.message : error);
  process.exit(2);
});
