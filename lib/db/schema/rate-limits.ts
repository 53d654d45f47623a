import { bigint, boolean, pgTable, text } from "drizzle-orm/pg-core";

/**
 * GCRA state, one row per limited key (`client:<clientId>`, `secret:<paymentId>`,
 * `key:<publishableKey>`, `customer:<customerId>`; never a secret). `tat_ms` is the theoretical
 * arrival time in epoch milliseconds: the same unit as the Redis script and the pure function in
 * lib/rate-limit/gcra.ts, so the three agree to the millisecond. A row whose TAT has passed
 * means "full quota", exactly like no row; the sweep job deletes those.
 *
 * Every authenticated request updates a row here, so the table has no index on `tat_ms`: an
 * update that changes no indexed column is a HOT update, which writes no index entry and whose
 * dead versions the next update of the page prunes, so the table stays a few pages whether or
 * not autovacuum keeps up (or runs at all). The minute's sweep reads the table whole instead.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  tatMs: bigint("tat_ms", { mode: "number" }).notNull(),
  // The decision of the last request, written by the same upsert so RETURNING can tell it.
  allowed: boolean("allowed").notNull(),
});
