import { sql } from "drizzle-orm";
import type { BackgroundJob } from "../../background-job";
import type { Db } from "../../db/client";
import { sqlRows } from "../../db/sql-rows";

const BATCH = 5_000;

/**
 * Removes what can no longer open anything or count toward anything, a bounded batch of each per
 * run: sessions ended, idle or past their 7 days (kept a day longer, plenty for any rule that
 * reads them); sign-in failures older than the lockout's 30 minutes of memory (kept an hour);
 * invitations used or expired a month ago; password reset links a day after they stopped working,
 * and reset requests as sign-in failures. The audit log keeps its own record of all of it.
 */
export async function purgeConsoleRecords(db: Db): Promise<number> {
  const sessions = await db.execute(sql`
    DELETE FROM console_sessions WHERE id IN (
      SELECT id FROM console_sessions
      WHERE ended_at < now() - interval '1 day'
         OR last_used_at < now() - interval '2 days'
         OR created_at < now() - interval '8 days'
      LIMIT ${BATCH}
    ) RETURNING id`);
  const failures = await db.execute(sql`
    DELETE FROM console_sign_in_failures WHERE id IN (
      SELECT id FROM console_sign_in_failures WHERE failed_at < now() - interval '1 hour' LIMIT ${BATCH}
    ) RETURNING id`);
  const invitations = await db.execute(sql`
    DELETE FROM console_invitations WHERE id IN (
      SELECT id FROM console_invitations
      WHERE coalesce(accepted_at, expires_at) < now() - interval '30 days'
      LIMIT ${BATCH}
    ) RETURNING id`);
  const resets = await db.execute(sql`
    DELETE FROM console_password_resets WHERE id IN (
      SELECT id FROM console_password_resets
      WHERE coalesce(used_at, expires_at) < now() - interval '1 day'
      LIMIT ${BATCH}
    ) RETURNING id`);
  const resetRequests = await db.execute(sql`
    DELETE FROM console_password_reset_requests WHERE id IN (
      SELECT id FROM console_password_reset_requests WHERE requested_at < now() - interval '1 hour' LIMIT ${BATCH}
    ) RETURNING id`);
  return [sessions, failures, invitations, resets, resetRequests].reduce<number>(
    (total, rows) => total + sqlRows(rows).length,
    0,
  );
}

export const consolePurgeJob: BackgroundJob = {
  name: "console.purge-old",
  intervalMs: 60 * 60_000,
  run: (db) => purgeConsoleRecords(db),
};
