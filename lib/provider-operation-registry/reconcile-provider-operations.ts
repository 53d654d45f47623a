import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedStatement } from "../db/prepared";
import { sqlRows } from "../db/sql-rows";
import { providerOperations } from "../db/schema";
import { ApiError } from "../errors/api-error";
import { logger } from "../log";
import type { BackgroundJob } from "../background-job";
import { completeProviderOperation, OPERATION_LEASE_MS, type ProviderOperationRow } from "../provider-operations";
import { handlerOf } from "./provider-operation-handlers";

const BATCH = 20;

/**
 * Step (d): finishes operations whose outcome is unknown (time-out, 5xx, reset) or whose
 * request died between the call and the settle (pending past its lease). Each is claimed for
 * one lease with SKIP LOCKED (several workers never ask twice at once), then the provider is
 * asked again with the same idempotency key: it answers what it did, or does it now, once.
 */
export async function reconcileProviderOperations(
  db: Db,
  options: {
    now?: Date;
    /** Only this payment's operations (tests and operator tools: every other payment's wait). */
    paymentId?: string;
  } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const claimed = await claimStatement(db).execute({
    leaseEnd: new Date(now.getTime() + OPERATION_LEASE_MS).toISOString(),
    now: now.toISOString(),
    batch: BATCH,
    paymentId: options.paymentId ?? null,
  });
  const ids = sqlRows<{ id: string }>(claimed).map((row) => row.id);
  let finished = 0;
  for (const id of ids) {
    const [operation] = await db
      .select()
      .from(providerOperations)
      .where(sql`${providerOperations.id} = ${id}`);
    if (!operation) continue;
    try {
      const settled = await completeProviderOperation(db, operation as ProviderOperationRow, handlerOf(operation), {
        reconciling: true,
      });
      logger.info({ operationId: id, kind: operation.kind, status: settled.status }, "provider operation reconciled");
      finished += 1;
    } catch (error) {
      if (!(error instanceof ApiError && error.errorName === "provider_unavailable")) {
        logger.error({ err: error, operationId: id }, "provider operation reconciliation failed");
      }
    }
  }
  return finished;
}

// Named: the job runs it every two seconds.
const claimStatement = (db: Db) =>
  preparedStatement(
    db,
    "provider_operations_claim_due",
    () => sql`
    UPDATE ${providerOperations}
    SET next_attempt_at = ${sql.placeholder("leaseEnd")}::timestamptz,
        updated_at = ${sql.placeholder("now")}::timestamptz
    WHERE id IN (
      SELECT id FROM ${providerOperations}
      WHERE status IN ('pending', 'unknown') AND next_attempt_at <= ${sql.placeholder("now")}::timestamptz
        AND (${sql.placeholder("paymentId")}::uuid IS NULL OR payment_id = ${sql.placeholder("paymentId")}::uuid)
      ORDER BY next_attempt_at LIMIT ${sql.placeholder("batch")}
      FOR UPDATE SKIP LOCKED)
    RETURNING id`,
  );

export const providerReconciliationJob: BackgroundJob = {
  name: "provider-operations-reconciliation",
  intervalMs: 2_000,
  run: (db) => reconcileProviderOperations(db),
};
