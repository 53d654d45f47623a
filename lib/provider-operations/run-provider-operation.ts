import { and, eq, inArray, ne, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { providerOperations } from "../db/schema";
import { ApiError } from "../errors/api-error";
import { logger } from "../log";
import { lockPaymentWithService } from "../db/payment-record";
import { serviceClock } from "../clock";
import {
  OPERATION_LEASE_MS,
  providerCallTimeoutMs,
  ProviderRefusedError,
  ProviderUnavailableError,
  RETRY_AFTER_SECONDS,
  type HandlerLookup,
  type ProviderAnswer,
  type ProviderName,
  type ProviderOperationHandler,
  type ProviderOperationKind,
  type ProviderOperationRow,
} from "./provider-operation";
import { isInsideTransaction, ProviderCallInTransactionError } from "../db/transaction-guard";
import { observeProviderCall } from "../metrics/provider-call-metrics";

const OPEN = ["pending", "unknown"] as const;

export const isOpen = (operation: Pick<ProviderOperationRow, "status">) =>
  operation.status === "pending" || operation.status === "unknown";

export const providerUnavailable = () =>
  new ApiError(
    "provider_unavailable",
    "The payment provider did not answer; the operation will be completed, retry later with the same Idempotency-Key.",
    undefined,
    {
      "Retry-After": String(RETRY_AFTER_SECONDS),
    },
  );

/**
 * The operation recorded for this request key, if any (a retry of the same Idempotency-Key
 * after a 503). The same key on another payment is a reuse with other parameters.
 */
export async function findProviderOperation(
  tx: Db,
  id: string,
  options: { paymentId: string },
): Promise<ProviderOperationRow | null> {
  const [row] = await tx.select().from(providerOperations).where(eq(providerOperations.id, id));
  if (row && row.paymentId !== options.paymentId) {
    throw new ApiError("idempotency_conflict", "This Idempotency-Key was already used with different parameters.");
  }
  return row ?? null;
}

/** Refunds reserve their amount instead of the payment: several may be open on one payment at once. */
export const isParallelKind = (kind: string) => kind === "refund";

/**
 * Step (a), inside the transaction that locked and validated the payment: records the pending
 * operation. An unsettled capture, release or charge is part of the payment's lock: another
 * money operation is refused until it is settled. Refunds may run side by side: each reserves
 * its amount (see pendingRefundMinor, which the caller subtracts from what is refundable), and
 * only an open exclusive operation refuses them.
 */
/** Something a caller writes in the transaction that records a new provider operation. */
export type WithinTransaction = (tx: Db) => Promise<void>;

/** The operations this process recorded and has not handed to a call yet (their first call is the recorder's). */
const recordedHere = new WeakSet<ProviderOperationRow>();

export async function beginProviderOperation(
  tx: Db,
  options: {
    id: string;
    paymentId: string | null;
    provider: ProviderName;
    kind: ProviderOperationKind;
    amountMinor?: number | null;
    request?: Record<string, unknown>;
    /** When the request was made, on its service's clock (the sandbox clock may run ahead). */
    now?: Date;
    /** Leave it to reconciliation at once (no request will call the provider). */
    deferred?: boolean;
    /**
     * Written with the operation, in its transaction (the console's audit entry): both commit or
     * neither, and a retry that finds the operation writes nothing again.
     */
    withinTransaction?: WithinTransaction;
  },
): Promise<ProviderOperationRow> {
  const now = options.now ?? new Date();
  if (options.paymentId) {
    const [open] = await tx
      .select({ id: providerOperations.id })
      .from(providerOperations)
      .where(
        and(
          eq(providerOperations.paymentId, options.paymentId),
          inArray(providerOperations.status, [...OPEN]),
          isParallelKind(options.kind) ? ne(providerOperations.kind, "refund") : undefined,
        ),
      );
    if (open) throw operationInProgress();
  }
  const [row] = await tx
    .insert(providerOperations)
    .values({
      id: options.id,
      paymentId: options.paymentId,
      provider: options.provider,
      kind: options.kind,
      amountMinor: options.amountMinor ?? null,
      request: options.request ?? {},
      // Leases run on real time (the reconciliation job's), whatever clock `now` was read from.
      nextAttemptAt: options.deferred ? new Date() : new Date(Date.now() + OPERATION_LEASE_MS),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await options.withinTransaction?.(tx);
  recordedHere.add(row!);
  return row!;
}

/**
 * The amount reserved by refunds recorded on the payment and not settled yet (a reversal of a
 * charge the gateway never accepted reserves nothing). Read under the payment's lock.
 */
export async function pendingRefundMinor(tx: Db, paymentId: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${providerOperations.amountMinor}), 0)` })
    .from(providerOperations)
    .where(
      and(
        eq(providerOperations.paymentId, paymentId),
        eq(providerOperations.kind, "refund"),
        inArray(providerOperations.status, [...OPEN]),
        sql`coalesce((${providerOperations.request}->>'reversal')::boolean, false) = false`,
      ),
    );
  return Number(row?.total ?? 0);
}

/**
 * SQL: the payment whose id is `paymentId` has a provider operation in one of `statuses` (by
 * default not settled yet), of one of `kinds` when given. For the sweeps, which pass a payment
 * an open operation holds by instead of waiting on it, and for reconciliation's choices.
 */
export function providerOperationExists(
  paymentId: AnyColumn,
  options: {
    kinds?: readonly ProviderOperationRow["kind"][];
    statuses?: readonly ProviderOperationRow["status"][];
  } = {},
): SQL {
  const ofKinds = options.kinds ? sql` and o.kind in ${options.kinds}` : sql``;
  return sql`exists (select 1 from ${providerOperations} o
    where o.payment_id = ${paymentId} and o.status in ${options.statuses ?? OPEN}${ofKinds})`;
}

export const operationInProgress = () =>
  new ApiError(
    "request_in_progress",
    "Another provider operation on this payment is still being completed; retry shortly.",
    undefined,
    {
      "Retry-After": String(RETRY_AFTER_SECONDS),
    },
  );

/**
 * Steps (b) and (c): calls the provider with the operation's key under a time limit, outside
 * any transaction, then settles the payment in a transaction of its own, or records the
 * refusal. A call that fails or times out leaves the operation `unknown` for reconciliation
 * and throws 503 provider_unavailable. Returns the settled row (succeeded or failed).
 * `handler` is the operation's own (PROVIDER_OPERATION_HANDLERS), which the caller names.
 */
export async function completeProviderOperation(
  db: Db,
  operation: ProviderOperationRow,
  handler: ProviderOperationHandler,
  options: {
    reported?: () => Promise<ProviderAnswer>;
    /** Reconciliation calls, under the lease its claim took (reconcile-provider-operations.ts). */
    reconciling?: boolean;
  } = {},
): Promise<ProviderOperationRow> {
  if (!isOpen(operation)) return operation;
  if (isInsideTransaction()) throw new ProviderCallInTransactionError(`provider operation ${operation.kind}`);
  if (handler.provider !== operation.provider || handler.kind !== operation.kind) {
    throw new Error(
      `handler ${handler.provider}:${handler.kind} given for operation ${operation.provider}:${operation.kind}`,
    );
  }
  let answer: ProviderAnswer;
  // `reported`: the provider reported the outcome itself (a signed callback), which is no call of ours to count.
  const call = options.reported ? undefined : observeProviderCall(operation.provider, operation.kind);
  try {
    // A reported outcome settles the same way as an answer.
    answer = await withTimeLimit(
      (
        options.reported ??
        (() => {
          const recordedNow = recordedHere.delete(operation);
          return handler.call(operation, { reconciling: options.reconciling ?? false, recordedNow });
        })
      )(),
      providerCallTimeoutMs(),
    );
    call?.end("ok");
  } catch (error) {
    if (error instanceof ProviderRefusedError) {
      call?.end("refused");
      return failProviderOperation(db, operation, handler, error.code);
    }
    call?.end(isTimeout(error) ? "timeout" : "unavailable");
    await markUnknown(db, operation, error);
    throw providerUnavailable();
  }
  return settleProviderOperation(db, operation, handler, answer);
}

async function settleProviderOperation(
  db: Db,
  operation: ProviderOperationRow,
  handler: ProviderOperationHandler,
  answer: ProviderAnswer,
) {
  return db.transaction(async (tx) => {
    const locked = await lockOperationPayment(tx, operation);
    const current = await lockOperation(tx, operation.id);
    if (!isOpen(current)) return current; // Settled meanwhile by reconciliation or a retry.
    const now = new Date();
    const result = locked
      ? await handler.settle(tx, { operation: current, payment: locked.payment, answer, now: locked.now })
      : {};
    const [settled] = await tx
      .update(providerOperations)
      .set({ status: "succeeded", providerReference: answer.reference, result, settledAt: now, updatedAt: now })
      .where(eq(providerOperations.id, operation.id))
      .returning();
    return settled!;
  });
}

async function failProviderOperation(
  db: Db,
  operation: ProviderOperationRow,
  handler: ProviderOperationHandler,
  code: string,
) {
  return db.transaction(async (tx) => {
    const locked = await lockOperationPayment(tx, operation);
    const current = await lockOperation(tx, operation.id);
    if (!isOpen(current)) return current;
    const now = new Date();
    if (locked && handler.fail)
      await handler.fail(tx, { operation: current, payment: locked.payment, code, now: locked.now });
    const [failed] = await tx
      .update(providerOperations)
      .set({ status: "failed", resultCode: code, settledAt: now, updatedAt: now })
      .where(eq(providerOperations.id, operation.id))
      .returning();
    return failed!;
  });
}

/**
 * The operation's payment, locked, and the time on its service's clock, which the payment's
 * changes are written at (as every request writes them: a sandbox clock moved on must see a
 * reservation authorized now as authorized now). The operation's own timestamps stay real.
 */
async function lockOperationPayment(tx: Db, operation: ProviderOperationRow) {
  if (!operation.paymentId) return null;
  const row = await lockPaymentWithService(tx, operation.paymentId);
  return row ? { payment: row.payment, now: serviceClock(row.service).now() } : null;
}

async function lockOperation(tx: Db, id: string): Promise<ProviderOperationRow> {
  const [row] = await tx.select().from(providerOperations).where(eq(providerOperations.id, id)).for("update");
  if (!row) throw new Error(`provider operation ${id} vanished`);
  return row;
}

/** Growing waits between reconciliation attempts: 5 s, 10 s, 20 s, ... at most 10 minutes. */
export function nextAttemptDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 10 * 60_000);
}

async function markUnknown(db: Db, operation: ProviderOperationRow, error: unknown) {
  const attempts = operation.attempts + 1;
  const now = new Date();
  logger.warn(
    { operationId: operation.id, kind: operation.kind, provider: operation.provider, err: describe(error) },
    "provider call failed; left for reconciliation",
  );
  await db
    .update(providerOperations)
    .set({
      status: "unknown",
      attempts,
      resultCode: describe(error),
      nextAttemptAt: new Date(now.getTime() + nextAttemptDelayMs(attempts)),
      updatedAt: now,
    })
    .where(and(eq(providerOperations.id, operation.id), inArray(providerOperations.status, [...OPEN])));
}

function describe(error: unknown): string {
  if (error instanceof ProviderUnavailableError) return error.message.slice(0, 200);
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 200);
  return "unknown error";
}

/** The boundary's own bound ran out (PROVIDER_CALL_TIMEOUT_MS). */
class ProviderCallTimeoutError extends ProviderUnavailableError {}

/**
 * A call that ran out of time: the boundary's bound, or an adapter's own (lib/time-limit's TimeoutError,
 * which adapters may wrap).
 */
function isTimeout(error: unknown): boolean {
  if (error instanceof ProviderCallTimeoutError) return true;
  if (!(error instanceof Error)) return false;
  return (
    error.name === "TimeoutError" ||
    (error.cause instanceof Error && error.cause.name === "TimeoutError") ||
    /timed out/i.test(error.message)
  );
}

export async function withTimeLimit<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderCallTimeoutError(`provider call timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export type Begun<T> = { kind: "done"; result: T } | { kind: "operation"; operation: ProviderOperationRow };

/**
 * The whole boundary for one request: `begin` runs in a transaction that locks the payment,
 * validates and either finishes without the provider (`done`) or records an operation
 * (beginProviderOperation, or findProviderOperation for a retry); the provider is then called
 * outside any transaction and the operation settled; `finish` turns the settled operation
 * into the answer (a refusal into an ApiError, see refusalError). `handlerOf` finds the
 * recorded operation's handler (lib/provider-operation-registry).
 */
export async function runProviderOperation<T>(
  db: Db,
  options: {
    begin: (tx: Db) => Promise<Begun<T>>;
    finish: (db: Db, operation: ProviderOperationRow) => Promise<T>;
    handlerOf: HandlerLookup;
  },
): Promise<T> {
  const begun = await db.transaction(options.begin);
  if (begun.kind === "done") return begun.result;
  const settled = await completeProviderOperation(db, begun.operation, options.handlerOf(begun.operation));
  return options.finish(db, settled);
}

/** The answer to an operation the provider refused. */
export function refusalError(operation: ProviderOperationRow): ApiError {
  return new ApiError(
    "invalid_state",
    `The payment provider refused the ${operation.kind} (${operation.resultCode ?? "refused"}).`,
  );
}
