import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { and, gt, lt, ne, sql } from "drizzle-orm";
import { AggregatorRegistry, Gauge, type Registry } from "prom-client";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import { poolUsage } from "../db/pool-usage";
import { metricsSnapshots } from "../db/schema";
import { logger } from "../log";
import { metrics } from "./gateway-metrics";

/**
 * One view of every gateway process that shares the database: each process (`npm start`'s
 * servers, its job runner, any `npm run worker`, on any host) writes its counts to
 * `metrics_snapshots` every PUBLISH_INTERVAL_MS, and a scrape sums the fresh rows with its own
 * live counts through prom-client's `AggregatorRegistry.aggregate` (counters and histograms
 * summed, the database gauges by their largest value). prom-client's IPC aggregation
 * (`clusterMetrics()`) would reach only one host's cluster workers, through the primary, and
 * not a worker started on its own.
 *
 * A process that stops is left out once its row is older than FRESH_MS, and its counts with it:
 * Prometheus' rate() takes that drop for a counter reset, as it does for a restarted server.
 */
export const PUBLISH_INTERVAL_MS = 5_000;
const FRESH_MS = 30_000;

type MetricsJson = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;

const shared = globalThis as { gatewayMetricsInstance?: string };
/** This process in `metrics_snapshots` (host, pid, random): never exported. */
const instance = (shared.gatewayMetricsInstance ??= `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`);

/** This process's counts, with its pool's use as it stands. */
async function localMetrics(): Promise<MetricsJson> {
  const pool = poolUsage();
  metrics.poolInUse.set(pool.inUse);
  metrics.poolWaiting.set(pool.waiting);
  metrics.poolMax.set(pool.max);
  return metrics.registry.getMetricsAsJSON();
}

export async function publishMetricsSnapshot(db: Db): Promise<void> {
  const json = await localMetrics();
  await db
    .insert(metricsSnapshots)
    .values({ instance, metrics: json })
    .onConflictDoUpdate({ target: metricsSnapshots.instance, set: { metrics: json, writtenAt: sql`now()` } });
}

/**
 * Writes this process's snapshot every few seconds while METRICS_TOKEN is set (nothing at all
 * otherwise), and once more when stopped. A failed write is logged once a minute at most.
 */
export function startMetricsPublisher(openDb: () => Promise<Db>): { stop(): Promise<void> } {
  if (!getConfig().METRICS_TOKEN) return { stop: async () => {} };
  let lastWarning = -Infinity;
  const publish = async () => {
    try {
      await publishMetricsSnapshot(await openDb());
    } catch (error) {
      if (Date.now() - lastWarning < 60_000) return;
      lastWarning = Date.now();
      logger.warn({ err: error }, "metrics snapshot not written");
    }
  };
  const timer = setInterval(() => void publish(), PUBLISH_INTERVAL_MS);
  timer.unref();
  void publish();
  return {
    async stop() {
      clearInterval(timer);
      await publish();
    },
  };
}

/** Deletes the rows of processes gone for more than an hour (the job runner's collection). */
export async function purgeStaleSnapshots(db: Db): Promise<void> {
  await db.delete(metricsSnapshots).where(lt(metricsSnapshots.writtenAt, sql`now() - interval '1 hour'`));
}

/**
 * The Prometheus text of every fresh process, this one live. With the database unreachable it
 * is this process's alone, and `gateway_metrics_processes` says 1.
 */
export async function clusterMetricsText(openDb: () => Promise<Db>): Promise<{ text: string; contentType: string }> {
  let others: MetricsJson[] = [];
  try {
    const db = await openDb();
    const rows = await db
      .select({ metrics: metricsSnapshots.metrics })
      .from(metricsSnapshots)
      .where(
        and(
          ne(metricsSnapshots.instance, instance),
          gt(metricsSnapshots.writtenAt, sql`now() - make_interval(secs => ${FRESH_MS / 1000})`),
        ),
      );
    others = rows.map((row) => row.metrics as MetricsJson);
  } catch (error) {
    logger.warn({ err: error }, "metrics of the other processes not read; this process's alone");
  }
  const registry = AggregatorRegistry.aggregate([await localMetrics(), ...others]);
  new Gauge({
    name: "gateway_metrics_processes",
    help: "Gateway processes (servers and workers) whose counts this scrape sums.",
    registers: [registry],
  }).set(others.length + 1);
  return { text: await registry.metrics(), contentType: registry.contentType };
}
