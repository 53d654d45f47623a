import { sql } from "drizzle-orm";
import { runAudit } from "../audit/run-audit";
import type { BackgroundJob } from "../background-job";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import { sqlRows } from "../db/sql-rows";
import { purgeStaleSnapshots } from "../metrics/cluster-view";
import { metrics } from "../metrics/gateway-metrics";

// The audit's slack for a delivery overrunning its schedule, as `npm run audit` takes it by default.
const AUDIT_DELIVERY_SLACK_SECONDS = 120;

/**
 * The backlogs a scrape reports, read by the job runner (one statement on two partial indexes,
 * every 15 s) rather than by each scrape or request: provider operations left to reconciliation
 * (the call failed or timed out, or its lease ran out) and notifications due, each with the age
 * of the oldest. Only while METRICS_TOKEN is set: nothing else reads them.
 */
export const backlogMetricsJob: BackgroundJob = {
  name: "metrics.backlogs",
  intervalMs: 15_000,
  async run(db) {
    if (!getConfig().METRICS_TOKEN) return 0;
    await collectBacklogMetrics(db);
    await purgeStaleSnapshots(db);
    return 0;
  },
};

export async function collectBacklogMetrics(db: Db): Promise<void> {
  const [row] = sqlRows<{
    awaiting: string | number;
    oldest_awaiting: string | number | null;
    due: string | number;
    oldest_due: string | number | null;
  }>(
    await db.execute(sql`
      select o.awaiting, o.oldest_awaiting, n.due, n.oldest_due
      from (select count(*) as awaiting, extract(epoch from now() - min(created_at)) as oldest_awaiting
              from provider_operations where status = 'unknown' or (status = 'pending' and next_attempt_at <= now())) o,
           (select count(*) as due, extract(epoch from now() - min(next_attempt_at)) as oldest_due
              from notifications where status = 'pending' and next_attempt_at <= now()) n`),
  );
  metrics.providerAwaiting.set(Number(row?.awaiting ?? 0));
  metrics.providerOldestAwaiting.set(Math.max(0, Number(row?.oldest_awaiting ?? 0)));
  metrics.webhooksDue.set(Number(row?.due ?? 0));
  metrics.webhookOldestDue.set(Math.max(0, Number(row?.oldest_due ?? 0)));
}

/**
 * The ledger audit of `npm run audit` (lib/audit: one set-based query per invariant, in one
 * read-only snapshot) every five minutes, exported as violations per invariant; an invariant
 * whose table does not exist (the simulators' books in production) is left out.
 */
export const ledgerAuditJob: BackgroundJob = {
  name: "metrics.ledger-audit",
  intervalMs: 5 * 60_000,
  async run(db) {
    if (!getConfig().METRICS_TOKEN) return 0;
    await collectAuditMetrics(db);
    return 0;
  },
};

export async function collectAuditMetrics(db: Db): Promise<void> {
  const config = getConfig();
  const report = await runAudit(db, {
    retrySchedule: config.WEBHOOK_RETRY_SCHEDULE,
    deliverySlackSeconds: AUDIT_DELIVERY_SLACK_SECONDS,
    reconciliationBoundSeconds: config.PROVIDER_RECONCILIATION_BOUND_SECONDS,
  });
  for (const result of report.results) {
    if (result.violations !== null) metrics.auditViolations.set({ invariant: result.name }, result.violations.length);
  }
  metrics.auditLastRun.set(Date.now() / 1000);
}
