// What an operator's Prometheus would have seen during `npm run chaos`: GET /api/metrics of
// whichever gateway answers, every few seconds, keeping the peaks of the backlog gauges; at the
// end the alert-relevant figures (ops/gateway-alerts.yml), and the reconciliation backlog back at 0.
const WATCHED = [
  "gateway_provider_operations_awaiting_reconciliation",
  "gateway_provider_operation_oldest_awaiting_seconds",
  "gateway_webhooks_due",
  "gateway_webhook_oldest_due_seconds",
  "gateway_db_pool_waiting",
] as const;

type Series = Map<string, number>;

function parse(text: string): Series {
  const series: Series = new Map();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

/** The sum of a metric's series by one label's value (`outcome`, `status`...). */
function byLabel(series: Series, metric: string, label: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const [name, value] of series) {
    if (!name.startsWith(`${metric}{`)) continue;
    const key = new RegExp(`${label}="([^"]*)"`).exec(name)?.[1] ?? "";
    sums.set(key, (sums.get(key) ?? 0) + value);
  }
  return sums;
}

const list = (sums: Map<string, number>) => [...sums].map(([key, n]) => `${key} ${n}`).join(", ") || "none";

export function watchMetrics(baseUrls: string[], token: string, everyMs = 3_000) {
  const peaks = new Map<string, number>();
  let last: Series | null = null;
  let running = true;

  async function scrapeOnce(): Promise<Series | null> {
    for (const baseUrl of baseUrls) {
      try {
        const answer = await fetch(`${baseUrl}/api/metrics`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(5_000),
        });
        if (answer.status !== 200) continue;
        const series = parse(await answer.text());
        last = series;
        for (const name of WATCHED) peaks.set(name, Math.max(peaks.get(name) ?? 0, series.get(name) ?? 0));
        return series;
      } catch {
        // That gateway is down (killed, restarting): the other one.
      }
    }
    return null;
  }

  const loop = (async () => {
    while (running) {
      await scrapeOnce();
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();

  return {
    /**
     * Scrapes until the reconciliation backlog reads 0 (the worker's backlog job runs every 15 s), at most
     * `timeoutMs`.
     */
    async untilReconciled(timeoutMs: number): Promise<number | undefined> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const awaiting = (await scrapeOnce())?.get(WATCHED[0]);
        if (awaiting === 0 || Date.now() > deadline) return awaiting;
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    },
    async stop() {
      running = false;
      await loop;
    },
    /** The figures the alert rules watch, as the last scrape and the peaks saw them. */
    report(): string[] {
      if (!last) return ["metrics: no gateway answered GET /api/metrics"];
      const series: Series = last;
      const statuses = byLabel(series, "gateway_http_requests_total", "status");
      const total = [...statuses.values()].reduce((sum, n) => sum + n, 0);
      const serverErrors = [...statuses]
        .filter(([status]) => status.startsWith("5"))
        .reduce((sum, [, n]) => sum + n, 0);
      const serverErrorStatuses = new Map([...statuses].filter(([status]) => status.startsWith("5")));
      const auditViolations = [...byLabel(series, "gateway_audit_violations", "invariant").values()].reduce(
        (sum, n) => sum + n,
        0,
      );
      const gauge = (name: (typeof WATCHED)[number]) => `peak ${peaks.get(name) ?? 0}, now ${series.get(name) ?? "?"}`;
      return [
        `metrics (GET /api/metrics, ${series.get("gateway_metrics_processes") ?? "?"} processes in the view; ` +
          `counts of the processes alive at the end):`,
        `  provider calls by outcome: ${list(byLabel(series, "gateway_provider_calls_total", "outcome"))}`,
        `  webhook deliveries by outcome: ${list(byLabel(series, "gateway_webhook_deliveries_total", "outcome"))}`,
        `  HTTP answers: ${total}, of them 5xx: ${serverErrors} (${list(serverErrorStatuses)})`,
        `  provider operations awaiting reconciliation: ${gauge(WATCHED[0])} (oldest: ${gauge(WATCHED[1])} s)`,
        `  webhooks due: ${gauge(WATCHED[2])} (oldest due: ${gauge(WATCHED[3])} s)`,
        `  database pool waiting: ${gauge(WATCHED[4])}`,
        `  ledger audit violations (the job runner's audit): ${auditViolations}`,
        `  rate-limit refusals: ${list(byLabel(series, "gateway_rate_limit_refusals_total", "policy"))}`,
      ];
    },
  };
}
