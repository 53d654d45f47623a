import type { ApiClient } from "./api";

/** Series of a Prometheus text scrape: `name{labels}` → value. */
export type Scrape = Map<string, number>;

export const METRICS_TOKEN = "metrics-token-for-the-tests-0123456789abcdef";

export async function scrape(api: ApiClient): Promise<{ series: Scrape; text: string }> {
  const answer = await api.get<string>("/api/metrics", { authorization: `Bearer ${METRICS_TOKEN}` });
  if (answer.status !== 200) throw new Error(`GET /api/metrics answered ${answer.status}`);
  const text = answer.body;
  const series: Scrape = new Map();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return { series, text };
}

/**
 * What moved between two scrapes among the gateway's own counters and gauges: the process's
 * runtime metrics, the HTTP metrics (the scrapes count themselves), the pool's gauges, the jobs'
 * clocks and the histograms' buckets move with anything, so they are left out.
 */
export function moved(before: Scrape, after: Scrape, options: { keep?: RegExp } = {}): Record<string, number> {
  const changes: Record<string, number> = {};
  for (const [name, value] of after) {
    if (
      !name.startsWith("gateway_") ||
      /^gateway_(http_|db_pool_|job_last_success|metrics_processes|audit_last_run)|_bucket\{|_sum(\{|$)/.test(name)
    ) {
      if (!options.keep?.test(name)) continue;
    }
    const delta = value - (before.get(name) ?? 0);
    if (delta !== 0) changes[name] = Math.round(delta * 1000) / 1000;
  }
  return changes;
}
