import { and, asc, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { BackgroundJob } from "../../background-job";
import type { Db } from "../../db/client";
import { redirectPayments } from "../../db/schema";
import { logger } from "../../log";
import { settleRedirectPayment } from "../../payment-methods/redirect/settle-redirect-payment";
import { paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";
import { SYSTEM_CAUSE } from "../core/state-change-cause";

/** How often an order still open at its provider is asked about again. */
export const REDIRECT_ASK_EVERY_MS = 10_000;

/**
 * Contract 15, "A buyer who never comes back": every redirect payment whose order is still
 * open at its provider is asked about every few seconds (the job runs every 10 s), so check
 * reports the provider's outcome within 60 s of it, with the usual notification; an order paid
 * after its payment expired is given back there (settleRedirectPayment).
 */
export async function reconcileRedirectPayments(
  db: Db,
  options: { now?: Date; limit?: number; paymentId?: string } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const due = await db
    .select({ paymentId: redirectPayments.paymentId, methodCode: redirectPayments.methodCode })
    .from(redirectPayments)
    .where(
      and(
        isNull(redirectPayments.finishedAt),
        isNotNull(redirectPayments.providerOrderId),
        or(
          isNull(redirectPayments.lastAskedAt),
          lt(redirectPayments.lastAskedAt, new Date(now.getTime() - REDIRECT_ASK_EVERY_MS)),
        ),
        options.paymentId ? eq(redirectPayments.paymentId, options.paymentId) : undefined,
      ),
    )
    .orderBy(asc(redirectPayments.lastAskedAt))
    .limit(options.limit ?? 50);
  let settled = 0;
  for (const { paymentId, methodCode } of due) {
    const provider = paymentMethodOf(methodCode)?.redirect;
    if (!provider) continue;
    try {
      const result = await settleRedirectPayment(db, { paymentId, provider, cause: SYSTEM_CAUSE });
      if (result.kind === "settled" || result.kind === "reversed") {
        settled += 1;
        logger.info({ paymentId, outcome: result.kind }, "redirect payment finished by reconciliation");
      }
    } catch (error) {
      logger.error({ err: error, paymentId }, "redirect payment reconciliation failed");
    }
  }
  return settled;
}

export const redirectPaymentReconciliationJob: BackgroundJob = {
  name: "redirect-payments-reconciliation",
  intervalMs: REDIRECT_ASK_EVERY_MS,
  run: (db) => reconcileRedirectPayments(db),
};
