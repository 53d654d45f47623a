import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * What each gateway process last counted (prom-client's `getMetricsAsJSON()`), written every few
 * seconds while METRICS_TOKEN is set: GET /api/metrics sums the fresh rows into one view of every
 * server and worker sharing the database (lib/metrics/cluster-view.ts). `instance` is the
 * process (host, pid, a random suffix), never shown; rows older than an hour are deleted.
 */
export const metricsSnapshots = pgTable("metrics_snapshots", {
  instance: text("instance").primaryKey(),
  writtenAt: timestamp("written_at", { withTimezone: true }).notNull().defaultNow(),
  metrics: jsonb("metrics").notNull(),
});
