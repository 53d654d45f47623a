import { and, asc, eq, gt, isNull, lt, not, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { serviceNowSql } from "../../clock";
import { cardPayments, payments, services } from "../../db/schema";
import { logger } from "../../log";
import type { BackgroundJob } from "../../background-job";
import { providerOperationExists } from "../../provider-operations";
import { finalizeCardPayment } from "./finalize-card-payment";
import { SYSTEM_CAUSE } from "../../payments/core/state-change-cause";
import type { PaymentMethodCode } from "../codes/payment-method-codes";

/** How long a card payment may wait for the buyer's return or the provider's event before the gateway asks itself. */
export const CARD_RECONCILE_AFTER_MS = 60_000;
const REVERSAL_WINDOW_MS = 7 * 24 * 3600_000;
const CARD_METHOD_CODE: PaymentMethodCode = "CARD_PROVIDER";

/**
 * The provider's event may never arrive and the buyer may never come back to the page: card
 * payments still awaiting their card a minute after their last change are finished from what
 * the provider says about their intent, through the same finalize the page and the event use
 * (so each is settled once, whichever comes first). An intent still awaiting the buyer settles
 * nothing and is asked again on a later run.
 */
export async function reconcileCardPayments(
  db: Db,
  options: { now?: Date; limit?: number; serviceId?: string } = {},
): Promise<number> {
  // A payment's times are its service's clock (the sandbox's offset), so "a minute ago" is too.
  const serviceNow = serviceNowSql(services.clockOffsetSeconds, options.now);
  const before = (ms: number) => sql`${serviceNow} - make_interval(secs => ${ms / 1000})`;
  const waiting = await db
    .select({ paymentId: payments.id, providerIntentId: cardPayments.providerIntentId })
    .from(payments)
    .innerJoin(cardPayments, eq(cardPayments.paymentId, payments.id))
    .innerJoin(services, eq(services.id, payments.serviceId))
    .where(
      and(
        or(
          eq(payments.state, "REQUIRES_ACTION"),
          // Failed (expired, declined) while its intent could still be confirmed, and the cancel
          // came too late (refused: the provider took the money): finalize reverses the charge.
          // Within a week of the failure: one whose intent ended otherwise (canceled elsewhere) is not asked forever.
          and(
            eq(payments.state, "FAILED"),
            isNull(cardPayments.finalizedAt),
            gt(payments.updatedAt, before(REVERSAL_WINDOW_MS)),
            refusedCancelAwaitingReversal,
          ),
        ),
        eq(payments.paymentMethodCode, CARD_METHOD_CODE),
        lt(payments.updatedAt, before(CARD_RECONCILE_AFTER_MS)),
        options.serviceId ? eq(payments.serviceId, options.serviceId) : undefined,
      ),
    )
    .orderBy(asc(payments.updatedAt))
    .limit(options.limit ?? 50);
  let settled = 0;
  for (const { paymentId, providerIntentId } of waiting) {
    try {
      const result = await finalizeCardPayment(db, {
        paymentId,
        paymentIntentId: providerIntentId,
        externalCardId: null,
        cause: SYSTEM_CAUSE,
      });
      // Anything else (the intent still awaits the buyer, the provider is briefly away): ask again later.
      if (result.kind !== "settled" && result.kind !== "reversed") continue;
      settled += 1;
      logger.info({ paymentId, outcome: result.kind }, "card payment finished by reconciliation");
    } catch (error) {
      logger.error({ err: error, paymentId }, "card payment reconciliation failed");
    }
  }
  return settled;
}

// A cancel of the payment's intent the provider refused, and no reversal recorded since.
const refusedCancelAwaitingReversal = and(
  providerOperationExists(payments.id, { kinds: ["cancel"], statuses: ["failed"] }),
  not(
    providerOperationExists(payments.id, {
      kinds: ["cancel", "refund"],
      statuses: ["pending", "unknown", "succeeded"],
    }),
  ),
);

export const cardPaymentReconciliationJob: BackgroundJob = {
  name: "card-payments-reconciliation",
  intervalMs: 30_000,
  run: (db) => reconcileCardPayments(db),
};
