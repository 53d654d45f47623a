import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedStatement } from "../db/prepared";
import { sqlRows } from "../db/sql-rows";

/**
 * How long a worker holds a claimed notification: longer than an attempt can take (10 s
 * timeout) plus recording its result, so an item is re-sent only when its worker is gone.
 */
export const DELIVERY_LEASE_SECONDS = 60;

export interface ClaimedNotification {
  id: string;
  /** The attempt this worker now owns; its result is recorded only if still the current one. */
  attempt: number;
  /** The exact JSON text to send and sign. */
  body: string;
  serviceId: string;
  /** Null: the service has no webhook URL; the claim already settled the item as undeliverable. */
  webhookUrl: string | null;
  webhookSecretEncrypted: string;
}

/**
 * Claims up to `limit` due notifications in one statement. `FOR UPDATE SKIP LOCKED` lets
 * several workers claim side by side without waiting on or taking each other's rows, and the
 * claim moves `next_attempt_at` to the end of a lease, so a worker that dies mid-delivery
 * leaves the item due again afterwards. A re-claim of an item whose lease ran out records the
 * cut-off attempt, so the attempt list has no gap. Items of a service without a webhook URL
 * are settled as `undeliverable` here, without an attempt.
 */
export async function claimDueNotifications(
  db: Db,
  options: { limit: number; workerId: string; leaseSeconds?: number },
): Promise<ClaimedNotification[]> {
  const result = await claimStatement(db).execute({
    limit: options.limit,
    lease: options.leaseSeconds ?? DELIVERY_LEASE_SECONDS,
    workerId: options.workerId,
  });
  return sqlRows<ClaimedNotification>(result).map((row) => ({ ...row, attempt: Number(row.attempt) }));
}

// Named: the job runs it every half second when idle, and once per half batch under load.
const claimStatement = (db: Db) =>
  preparedStatement(
    db,
    "notifications_claim_due",
    () => sql`
  WITH due AS (
    SELECT id FROM notifications
    WHERE status = 'pending' AND next_attempt_at <= now()
    ORDER BY next_attempt_at
    LIMIT ${sql.placeholder("limit")}
    FOR UPDATE SKIP LOCKED
  ), interrupted AS (
    INSERT INTO notification_attempts (notification_id, attempt_number, error, duration_ms, attempted_at, worker_id)
    SELECT n.id, n.attempt_count, 'interrupted: the worker stopped before recording a result', 0,
           n.leased_until - make_interval(secs => ${sql.placeholder("lease")}), n.leased_by
    FROM notifications n JOIN due ON due.id = n.id
    WHERE n.leased_until IS NOT NULL AND n.attempt_count >= 1
    ON CONFLICT (notification_id, attempt_number) DO NOTHING
  )
  UPDATE notifications n SET
    status = CASE WHEN s.webhook_url IS NULL THEN 'undeliverable'::notification_status ELSE n.status END,
    last_error = CASE WHEN s.webhook_url IS NULL THEN 'the service has no webhook URL' ELSE n.last_error END,
    attempt_count = n.attempt_count + CASE WHEN s.webhook_url IS NULL THEN 0 ELSE 1 END,
    next_attempt_at = CASE WHEN s.webhook_url IS NULL THEN n.next_attempt_at
                           ELSE now() + make_interval(secs => ${sql.placeholder("lease")}) END,
    leased_until = CASE WHEN s.webhook_url IS NULL THEN NULL
                        ELSE now() + make_interval(secs => ${sql.placeholder("lease")}) END,
    leased_by = CASE WHEN s.webhook_url IS NULL THEN NULL ELSE ${sql.placeholder("workerId")} END
  FROM due, services s
  WHERE n.id = due.id AND s.id = n.service_id
  RETURNING n.id, n.attempt_count AS attempt, n.payload::text AS body, n.service_id AS "serviceId",
            s.webhook_url AS "webhookUrl", s.webhook_secret_encrypted AS "webhookSecretEncrypted"
  `,
  );
