import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { sqlRows } from "../db/sql-rows";
import type { BackgroundJob } from "../background-job";

/** Contract 12: an event is kept 30 days. */
export const EVENT_RETENTION_DAYS = 30;
const BATCH = 5_000;

/**
 * Deletes events older than the retention, with their attempts, a bounded batch per run (the
 * job goes again at once while there is more). An event a worker holds right now is left for
 * the next run, so its result never lands on a deleted row.
 */
export async function purgeEvents(db: Db): Promise<number> {
  const result = await db.execute(sql`
    WITH old AS (
      SELECT id FROM notifications
      WHERE created_at < now() - make_interval(days => ${EVENT_RETENTION_DAYS})
        AND (leased_until IS NULL OR leased_until < now())
      ORDER BY created_at
      LIMIT ${BATCH}
      FOR UPDATE SKIP LOCKED
    ), attempts AS (
      DELETE FROM notification_attempts WHERE notification_id IN (SELECT id FROM old)
    )
    DELETE FROM notifications WHERE id IN (SELECT id FROM old) RETURNING id
  `);
  return sqlRows(result).length;
}

export const eventPurgeJob: BackgroundJob = {
  name: "events.purge-old",
  intervalMs: 60 * 60_000,
  run: (db) => purgeEvents(db),
};
