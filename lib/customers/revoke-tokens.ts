import { and, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { customerTokens } from "../db/schema";

/**
 * Marks every live pair matching `condition` revoked, in two passes. A refresh in flight
 * holds the row it rotates; the first pass waits for it, but its snapshot predates the pair
 * that refresh inserts. The second pass starts after that commit, so it sees and revokes the
 * new pair too (READ COMMITTED gives each statement a fresh snapshot).
 */
export async function revokeTokensWhere(db: Db, condition: SQL | undefined): Promise<void> {
  for (let pass = 0; pass < 2; pass += 1) {
    await db
      .update(customerTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(condition, isNull(customerTokens.revokedAt)));
  }
}
