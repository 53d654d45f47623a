import { sql } from "drizzle-orm";
import { systemClock, type Clock } from "../clock";
import type { Db } from "../db/client";
import { rateLimits } from "../db/schema";
import type { BackgroundJob } from "../background-job";

const BATCH = 5_000;

/**
 * Deletes keys whose TAT has passed: such a row means "full quota", exactly like no row, so
 * deleting it changes no answer. A concurrent upsert that moved the TAT on is re-checked by
 * PostgreSQL before the delete and survives. Keeps the table as small as the set of callers
 * active in the last minute, whatever garbage ids were tried.
 */
export async function sweepRateLimits(db: Db, options: { clock?: Clock } = {}): Promise<number> {
  const nowMs = (options.clock ?? systemClock).now().getTime();
  const deleted = await db
    .delete(rateLimits)
    .where(
      sql`${rateLimits.key} in (select ${rateLimits.key} from ${rateLimits}
        where ${rateLimits.tatMs} <= ${nowMs} limit ${BATCH})`,
    )
    .returning({ key: rateLimits.key });
  return deleted.length;
}

export const rateLimitSweepJob: BackgroundJob = {
  name: "rate-limit-sweep",
  intervalMs: 60_000,
  run: (db) => sweepRateLimits(db),
};
