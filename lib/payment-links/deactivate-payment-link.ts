import { and, eq, isNull } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Db } from "../db/client";
import { paymentLinks } from "../db/schema";
import { getPaymentLink, getPaymentLinkOrThrow } from "./get-payment-link";
import { linkServiceOrThrow } from "./payment-link-record";
import type { PaymentLinkView } from "./payment-link.schema";

/**
 * POST /api/v1/payment-links/:id/deactivate: the link stops taking payments at once (its page
 * answers 410); payments already made stand. Deactivating again changes nothing and answers the same.
 */
export async function deactivatePaymentLink(db: Db, options: { serviceId: string; id: string; clock?: Clock }): Promise<PaymentLinkView> {
  const link = await getPaymentLinkOrThrow(db, options);
  await db
    .update(paymentLinks)
    .set({ deactivatedAt: (await linkServiceOrThrow(db, options.serviceId, options.clock)).clock.now() })
    .where(and(eq(paymentLinks.id, link.id), isNull(paymentLinks.deactivatedAt)));
  return getPaymentLink(db, options);
}
