import { and, asc, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { cardPayments, payments } from "../../db/schema";
import { logger } from "../../log";
import type { BackgroundJob } from "../../background-job";
import { finalizeCardPayment } from "./finalize-card-payment";

/** How long a card payment may wait for the buyer's return or the provider's event before the gateway asks itself. */
export const CARD_RECONCILE_AFTER_MS = 60_000;

/**
 * The provider's event may never arrive and the buyer may never come back to the page: card
 * payments still awaiting their card a minute after their last change are finished from what
 * the provider says about their intent, through the same finalize the page and the event use
 * (so each is settled once, whichever comes first). An intent still awaiting the buyer settles
 * nothing and is asked again on a later run.
 */
export async function reconcileCardPayments(db: Db, options: { now?: Date; limit?: number; serviceId?: string } = {}): Promise<number> {
  const now = options.now ?? new Date();
  const waiting = await db
    .select({ paymentId: payments.id, providerIntentId: cardPayments.providerIntentId })
    .from(payments)
    .innerJoin(cardPayments, eq(cardPayments.paymentId, payments.id))
    .where(
      and(
        eq(payments.state, "REQUIRES_ACTION"),
        eq(payments.paymentMethodCode, "CARD_PROVIDER"),
        lt(payments.updatedAt, new Date(now.getTime() - CARD_RECONCILE_AFTER_MS)),
        options.serviceId ? eq(payments.serviceId, options.serviceId) : undefined,
      ),
    )
    .orderBy(asc(payments.updatedAt))
    .limit(options.limit ?? 50);
  let settled = 0;
  for (const { paymentId, providerIntentId } of waiting) {
    try {
      const result = await finalizeCardPayment(db, { paymentId, paymentIntentId: providerIntentId, externalCardId: null });
      // Anything but settled (the intent still awaits the buyer, the provider is briefly away): ask again later.
      if (result.kind !== "settled") continue;
      settled += 1;
      logger.info({ paymentId }, "card payment finished by reconciliation");
    } catch (error) {
      logger.error({ err: error, paymentId }, "card payment reconciliation failed");
    }
  }
  return settled;
}

export const cardPaymentReconciliationJob: BackgroundJob = {
  name: "card-payments-reconciliation",
  intervalMs: 30_000,
  run: (db) => reconcileCardPayments(db),
};
