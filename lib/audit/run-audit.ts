import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { sqlRows } from "../db/sql-rows";
import { INVARIANTS, type AuditOptions } from "./invariants";

export interface Violation {
  subject: string;
  detail: string;
}

export interface InvariantResult {
  name: string;
  rule: string;
  /** Null when the invariant was skipped because a table it needs does not exist yet. */
  violations: Violation[] | null;
  ms: number;
}

export interface AuditReport {
  results: InvariantResult[];
  violationCount: number;
  payments: number;
  ms: number;
}

/**
 * Runs every invariant in one read-only repeatable-read transaction, so they all see the same
 * snapshot: an audit of a live database never reports a change half-seen between two queries.
 */
// A table named without its schema is the gateway's own (public); a simulator's is named with it.
const qualified = (table: string) => (table.includes(".") ? table : `public.${table}`);

export async function runAudit(db: Db, options: AuditOptions): Promise<AuditReport> {
  const started = performance.now();
  return db.transaction(
    async (tx) => {
      const results: InvariantResult[] = [];
      for (const invariant of INVARIANTS) {
        const begun = performance.now();
        if (invariant.requiresTable) {
          const [found] = sqlRows<{ exists: boolean }>(await tx.execute(sql`select to_regclass(${qualified(invariant.requiresTable)}) is not null as exists`));
          if (!found?.exists) {
            results.push({ name: invariant.name, rule: invariant.rule, violations: null, ms: 0 });
            continue;
          }
        }
        const violations = sqlRows<Violation>(await tx.execute(invariant.query(options))).map((row) => ({
          subject: String(row.subject),
          detail: String(row.detail),
        }));
        results.push({ name: invariant.name, rule: invariant.rule, violations, ms: performance.now() - begun });
      }
      const [counted] = sqlRows<{ n: number | string }>(await tx.execute(sql`select count(*) as n from payments`));
      return {
        results,
        violationCount: results.reduce((sum, result) => sum + (result.violations?.length ?? 0), 0),
        payments: Number(counted?.n ?? 0),
        ms: performance.now() - started,
      };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** The report as printed by `npm run audit`: every violation with its subject, then the totals. */
export function formatAuditReport(report: AuditReport, options: { maxPerInvariant?: number } = {}): string {
  const max = options.maxPerInvariant ?? 100;
  const lines: string[] = [];
  for (const result of report.results) {
    const time = `${result.ms.toFixed(0)} ms`;
    if (result.violations === null) {
      lines.push(`SKIP ${result.name} (its table does not exist yet)`);
      continue;
    }
    lines.push(`${result.violations.length === 0 ? "ok  " : "FAIL"} ${result.name}: ${result.violations.length} violation(s), ${time}`);
    for (const violation of result.violations.slice(0, max)) {
      lines.push(`     ${result.name} ${violation.subject}: ${violation.detail}`);
    }
    if (result.violations.length > max) lines.push(`     ... and ${result.violations.length - max} more`);
  }
  lines.push(`audit: ${report.payments} payments, ${report.violationCount} violation(s), ${report.ms.toFixed(0)} ms`);
  return lines.join("\n");
}
