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
  /** Null when the invariant was skipped: see `skipped`. */
  violations: Violation[] | null;
  /**
   * Why it was skipped: a simulator's table in a production database (its books are only ever in
   * a sandbox's), or a table this database does not have yet.
   */
  skipped?: "not_in_production" | "table_missing";
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
      const production = (await sealedEnvironment(tx)) === "production";
      const results: InvariantResult[] = [];
      for (const invariant of INVARIANTS) {
        const begun = performance.now();
        if (invariant.requiresTable) {
          const [found] = sqlRows<{ exists: boolean }>(
            await tx.execute(sql`select to_regclass(${qualified(invariant.requiresTable)}) is not null as exists`),
          );
          if (!found?.exists) {
            const skipped =
              production && invariant.requiresTable.startsWith("simulators.") ? "not_in_production" : "table_missing";
            results.push({ name: invariant.name, rule: invariant.rule, violations: null, skipped, ms: 0 });
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

/**
 * The environment the database was sealed with (lib/db/database-seal.ts); undefined for one not sealed, or
 * older than the seal.
 */
async function sealedEnvironment(tx: Db): Promise<string | undefined> {
  const [table] = sqlRows<{ exists: boolean }>(
    await tx.execute(sql`select to_regclass('public.database_seal') is not null as exists`),
  );
  if (!table?.exists) return undefined;
  const [seal] = sqlRows<{ environment: string }>(
    await tx.execute(sql`select environment from public.database_seal limit 1`),
  );
  return seal?.environment;
}

/** The report as printed by `npm run audit`: every violation with its subject, then the totals. */
export function formatAuditReport(report: AuditReport, options: { maxPerInvariant?: number } = {}): string {
  const max = options.maxPerInvariant ?? 100;
  const lines: string[] = [];
  for (const result of report.results) {
    const time = `${result.ms.toFixed(0)} ms`;
    if (result.violations === null) {
      const why =
        result.skipped === "not_in_production"
          ? "not in production: the simulators' books exist only in a sandbox"
          : "its table does not exist yet";
      lines.push(`SKIP ${result.name} (${why})`);
      continue;
    }
    const mark = result.violations.length === 0 ? "ok  " : "FAIL";
    lines.push(`${mark} ${result.name}: ${result.violations.length} violation(s), ${time}`);
    for (const violation of result.violations.slice(0, max)) {
      lines.push(`     ${result.name} ${violation.subject}: ${violation.detail}`);
    }
    if (result.violations.length > max) lines.push(`     ... and ${result.violations.length - max} more`);
  }
  lines.push(`audit: ${report.payments} payments, ${report.violationCount} violation(s), ${report.ms.toFixed(0)} ms`);
  return lines.join("\n");
}
