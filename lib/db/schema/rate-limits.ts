import { bigint, boolean, index, pgTable, text } from "drizzle-orm/pg-core";

/**
 * GCRA state, one row per limited key (`client:<clientId>`, `secret:<paymentId>`,
 * `key:<publishableKey>`, `customer:<customerId>`; never a secret). `tat_ms` is the theoretical
 * arrival time in epoch milliseconds: the same unit as the Redis script and the pure function in
 * lib/rate-limit/gcra.ts, so the three agree to the millisecond. A row whose TAT has passed
 * means "full quota", exactly like no row; the sweep job deletes those.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    tatMs: bigint("tat_ms", { mode: "number" }).notNull(),
    // The decision of the last request, written by the same upsert so RETURNING can tell it.
    allowed: boolean("allowed").notNull(),
  },
  (table) => [index("rate_limits_tat_idx").on(table.tatMs)],
);
