import { eq, sql } from "drizzle-orm";
import type { Db } from "../../lib/db/client";
import {
  cardProviderIdempotencyKeys,
  cardProviderPaymentIntents,
  cardProviderPaymentMethods,
} from "../card/card-tables";
import type { ProviderErrorCode, ProviderPaymentIntent, ProviderPaymentMethod } from "../../lib/providers/card/port";
import { CardProviderError } from "../../lib/providers/card/card-provider-error";

export type IntentRow = typeof cardProviderPaymentIntents.$inferSelect;
export type MethodRow = typeof cardProviderPaymentMethods.$inferSelect;

export function toIntent(row: IntentRow): ProviderPaymentIntent {
  return {
    id: row.id,
    status: row.status,
    amountMinor: row.amountMinor,
    currency: row.currency,
    captureMethod: row.captureMethod,
    amountCapturableMinor: row.amountCapturableMinor,
    amountReceivedMinor: row.amountReceivedMinor,
    amountRefundedMinor: row.amountRefundedMinor,
    paymentMethodId: row.paymentMethodId,
    setupFutureUsage: row.setupFutureUsage,
    customerRef: row.customerRef,
    metadata: row.metadata,
    lastErrorCode: row.lastErrorCode as ProviderErrorCode | null,
  };
}

export function toMethod(row: MethodRow): ProviderPaymentMethod {
  return {
    id: row.id,
    brand: row.brand,
    last4: row.last4,
    expMonth: row.expMonth,
    expYear: row.expYear,
    fingerprint: row.fingerprint,
    customerRef: row.customerRef,
    detached: row.detachedAt !== null,
  };
}

export async function lockIntent(tx: Db, id: string): Promise<IntentRow> {
  const [row] = await tx
    .select()
    .from(cardProviderPaymentIntents)
    .where(eq(cardProviderPaymentIntents.id, id))
    .for("update");
  if (!row) throw new CardProviderError(404, "resource_missing", `No such payment_intent: ${id}`);
  return row;
}

/**
 * A POST with an idempotency key, as a real provider keeps it: the first call's answer is
 * stored with its change in one transaction; the same key again returns that answer and
 * changes nothing. A refusal is not stored (nothing was applied).
 */
export async function idempotent<T extends Record<string, unknown>>(
  db: Db,
  key: string,
  operation: string,
  apply: (tx: Db) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
    const [seen] = await tx.select().from(cardProviderIdempotencyKeys).where(eq(cardProviderIdempotencyKeys.key, key));
    if (seen) {
      if (seen.operation !== operation)
        throw new CardProviderError(
          400,
          "idempotency_key_in_use",
          "Keys for idempotent requests can only be used with the same parameters.",
        );
      return seen.response as T;
    }
    const response = await apply(tx);
    await tx.insert(cardProviderIdempotencyKeys).values({ key, operation, response });
    return response;
  });
}
