import { lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { idempotencyKeys } from "../db/schema";
import type { BackgroundJob } from "../background-job";

/**
 * Deletes keys past their 24 hours. Expiry was stamped on the caller's service clock, which the
 * sandbox may move forward; a key kept a little longer is harmless, since a claim takes over an
 * expired row anyway.
 */
export async function purgeIdempotencyKeys(db: Db): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.expiresAt, sql`now()`))
    .returning({ id: idempotencyKeys.id });
  return deleted.length;
}

export const idempotencyPurgeJob: BackgroundJob = {
  name: "idempotency.purge-expired-keys",
  intervalMs: 10 * 60_000,
  run: (db) => purgeIdempotencyKeys(db),
};
