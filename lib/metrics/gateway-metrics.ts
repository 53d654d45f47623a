import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * Every Prometheus metric the gateway exports (docs/operations.md lists them with their alerts).
 * Labels name kinds, never instances: a route template, a method code, a state, a provider, a
 * policy, a job, an invariant. No id, phone, amount or secret is ever a label value
 * (tests/integration/metrics-labels.test.ts scans a scrape for them).
 *
 * Gauges read from the database (backlogs, the audit) are set by the job runner and exported as
 * the largest value any process reports (`aggregator: "max"`); everything else is summed over
 * the processes (lib/metrics/cluster-view.ts).
 */
function createGatewayMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  return {
    registry,
    httpRequests: new Counter({
      name: "gateway_http_requests_total",
      help: "HTTP requests answered, by route template, method and status (API, hosted pages, payment links, console).",
      labelNames: ["route", "method", "status"] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: "gateway_http_request_duration_seconds",
      help: "Time from a request's arrival to its answer, by route template and method.",
      labelNames: ["route", "method"] as const,
      buckets: seconds,
      registers: [registry],
    }),
    paymentStateChanges: new Counter({
      name: "gateway_payment_state_changes_total",
      help: "Payment state changes, by payment method and the states left and entered.",
      labelNames: ["method", "from", "to"] as const,
      registers: [registry],
    }),
    providerCalls: new Counter({
      name: "gateway_provider_calls_total",
      help: "Money-moving provider calls, by provider, operation and outcome (ok, refused, unavailable, timeout).",
      labelNames: ["provider", "operation", "outcome"] as const,
      registers: [registry],
    }),
    providerCallDuration: new Histogram({
      name: "gateway_provider_call_duration_seconds",
      help: "Duration of money-moving provider calls, by provider and operation.",
      labelNames: ["provider", "operation"] as const,
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    providerAwaiting: new Gauge({
      name: "gateway_provider_operations_awaiting_reconciliation",
      help: "Provider operations left to reconciliation: the call failed or timed out, or its lease ran out.",
      aggregator: "max",
      registers: [registry],
    }),
    providerOldestAwaiting: new Gauge({
      name: "gateway_provider_operation_oldest_awaiting_seconds",
      help: "Age of the oldest provider operation awaiting reconciliation (0 when none).",
      aggregator: "max",
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: "gateway_webhook_deliveries_total",
      help:
        "Webhook delivery attempts, by outcome (delivered, failed: retried later, " +
        "abandoned: the last attempt failed, undeliverable: no webhook URL).",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    webhooksDue: new Gauge({
      name: "gateway_webhooks_due",
      help: "Notifications whose delivery attempt is due now.",
      aggregator: "max",
      registers: [registry],
    }),
    webhookOldestDue: new Gauge({
      name: "gateway_webhook_oldest_due_seconds",
      help: "How long the longest-waiting due notification has been due (0 when none).",
      aggregator: "max",
      registers: [registry],
    }),
    jobLastSuccess: new Gauge({
      name: "gateway_job_last_success_timestamp_seconds",
      help: "When each background job last ran to the end without an error (Unix time).",
      labelNames: ["job"] as const,
      aggregator: "max",
      registers: [registry],
    }),
    poolInUse: new Gauge({
      name: "gateway_db_pool_connections_in_use",
      help: "Database connections busy with a statement or a transaction, over every process.",
      registers: [registry],
    }),
    poolWaiting: new Gauge({
      name: "gateway_db_pool_waiting",
      help: "Statements and transactions waiting for a free database connection, over every process.",
      registers: [registry],
    }),
    poolMax: new Gauge({
      name: "gateway_db_pool_connections_max",
      help: "Database connections the pools may open (DATABASE_POOL_SIZE per process), over every process.",
      registers: [registry],
    }),
    rateLimitRefusals: new Counter({
      name: "gateway_rate_limit_refusals_total",
      help: "Requests refused by a rate limit, by policy (client, key, secret, customer, link).",
      labelNames: ["policy"] as const,
      registers: [registry],
    }),
    consoleSignInFailures: new Counter({
      name: "gateway_console_sign_in_failures_total",
      help: "Console sign-in attempts refused for a wrong password or code.",
      registers: [registry],
    }),
    consoleLockouts: new Counter({
      name: "gateway_console_sign_in_lockouts_total",
      help: "Console sign-in lockouts begun (the failure that locked an email for 15 minutes).",
      registers: [registry],
    }),
    auditViolations: new Gauge({
      name: "gateway_audit_violations",
      help: "Violations the last periodic ledger audit found, per invariant (0: the books agree).",
      labelNames: ["invariant"] as const,
      aggregator: "max",
      registers: [registry],
    }),
    auditLastRun: new Gauge({
      name: "gateway_audit_last_run_timestamp_seconds",
      help: "When the periodic ledger audit last finished (Unix time).",
      aggregator: "max",
      registers: [registry],
    }),
  };
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;

/**
 * One set per process, on globalThis: Next.js's bundle, instrumentation.ts and the API lane's
 * bundle each load their own copy of this module and must count into the same registry.
 */
const shared = globalThis as { gatewayMetrics?: GatewayMetrics };
export const metrics: GatewayMetrics = (shared.gatewayMetrics ??= createGatewayMetrics());

const httpChildren = new Map<string, { count: { inc(): void }; duration: { observe(value: number): void } }>();

/**
 * Counts one answered request. The labelled children are kept per route, method and status, so a
 * request pays a map lookup instead of prom-client's label hashing (twice).
 */
export function observeHttpRequest(route: string, method: string, status: number, seconds: number): void {
  const key = `${route} ${method} ${status}`;
  let child = httpChildren.get(key);
  if (!child) {
    child = {
      count: metrics.httpRequests.labels(route, method, String(status)),
      duration: metrics.httpDuration.labels(route, method),
    };
    httpChildren.set(key, child);
  }
  child.count.inc();
  child.duration.observe(seconds);
}
