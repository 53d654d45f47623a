import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedStatement } from "../db/prepared";
import { metrics } from "../metrics/gateway-metrics";

export interface DeliveryResult {
  id: string;
  attempt: number;
  /** `pending` schedules the next attempt after `retryInSeconds`. */
  outcome: "delivered" | "pending" | "abandoned";
  retryInSeconds: number | null;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: Date;
}

/**
 * Records a batch of attempts and settles their notifications in one statement (so a burst
 * of deliveries costs one round trip per batch, not per item). A result counts only while its
 * worker still owns the attempt (`attempt_count` unchanged): a worker that outlived its lease
 * keeps its attempt row but cannot overwrite the newer claim.
 */
export async function recordDeliveryResults(
  db: Db,
  options: { results: readonly DeliveryResult[]; workerId: string },
): Promise<void> {
  const { results } = options;
  if (results.length === 0) return;
  const rows = JSON.stringify(
    results.map((result) => ({
      id: result.id,
      attempt: result.attempt,
      outcome: result.outcome,
      retry_in: result.retryInSeconds,
      response_status: result.responseStatus,
      error: result.error,
      duration_ms: result.durationMs,
      attempted_at: result.attemptedAt.toISOString(),
    })),
  );
  await recordStatement(db).execute({ rows, workerId: options.workerId });
  for (const result of results) metrics.webhookDeliveries.inc({ outcome: DELIVERY_OUTCOME[result.outcome] });
}

/** The metric's outcome of an attempt: `failed` is an attempt that failed with more to come. */
const DELIVERY_OUTCOME = { delivered: "delivered", pending: "failed", abandoned: "abandoned" } as const;

// Named: it runs once per batch of results, the same text every time.
const recordStatement = (db: Db) =>
  preparedStatement(
    db,
    "notifications_record_results",
    () => sql`
  WITH r AS (
    SELECT * FROM json_to_recordset(${sql.placeholder("rows")}::text::json) AS r(
      id text, attempt int, outcome text, retry_in double precision, response_status int,
      error text, duration_ms int, attempted_at timestamptz)
  ), recorded AS (
    INSERT INTO notification_attempts
      (notification_id, attempt_number, response_status, error, duration_ms, attempted_at, worker_id)
    SELECT id, attempt, response_status, error, duration_ms, attempted_at, ${sql.placeholder("workerId")} FROM r
    ON CONFLICT (notification_id, attempt_number) DO UPDATE SET
      response_status = excluded.response_status, error = excluded.error, duration_ms = excluded.duration_ms,
      attempted_at = excluded.attempted_at, worker_id = excluded.worker_id
  )
  UPDATE notifications n SET
    status = r.outcome::notification_status,
    delivered_at = CASE WHEN r.outcome = 'delivered' THEN now() END,
    next_attempt_at = CASE WHEN r.outcome = 'pending' THEN now() + make_interval(secs => r.retry_in)
                           ELSE n.next_attempt_at END,
    last_error = r.error,
    leased_until = NULL,
    leased_by = NULL
  FROM r
  WHERE n.id = r.id AND n.attempt_count = r.attempt AND n.status = 'pending'
  `,
  );
