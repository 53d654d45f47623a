import { formatAuditReport, runAudit } from "../../lib/audit/run-audit";
import { getConfig } from "../../lib/config";
import { openDatabase } from "../../lib/db/client";
import { deliverDueNotifications } from "../../lib/notifications/deliver-due-notifications";

/**
 * The ledger audit (`npm run audit`) on the database the suite just used, run by the global
 * teardown: every payment the tests made through the gateway, raced, killed and retried, must
 * still satisfy every money and state invariant, or the run fails with the violations listed.
 *
 * First one delivery pass, the one a worker would have made: the suite runs no background
 * worker, so events of services without a webhook URL would otherwise stay pending (a worker
 * settles them as undeliverable) and be reported as past their retry schedule.
 */
export async function auditSuiteDatabase(databaseUrl: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl, pgliteDir: "" });
  try {
    await deliverDueNotifications(handle.db, { timeoutMs: 2_000 });
    const report = await runAudit(handle.db, {
      retrySchedule: getConfig().WEBHOOK_RETRY_SCHEDULE,
      deliverySlackSeconds: 120,
      reconciliationBoundSeconds: Number(process.env.PROVIDER_RECONCILIATION_BOUND_SECONDS ?? 900),
    });
    if (report.violationCount > 0) {
      console.error(formatAuditReport(report, { maxPerInvariant: 20 }));
      // Vitest reports an error thrown by a global teardown but still exits 0: set the code.
      process.exitCode = 1;
      throw new Error(
        `ledger audit after the suite: ${report.violationCount} violation(s) ` +
          `in ${new URL(databaseUrl).pathname.slice(1)}`,
      );
    }
    console.log(`ledger audit after the suite: ${report.payments} payments, 0 violations, ${report.ms.toFixed(0)} ms`);
  } finally {
    await handle.close();
  }
}
