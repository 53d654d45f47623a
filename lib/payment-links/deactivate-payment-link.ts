import { and, eq, isNull } from "drizzle-orm";
import { recordAuditEntry, type AuditActor } from "../audit-log/record-audit-entry";
import type { Clock } from "../clock";
import type { Db } from "../db/client";
import { paymentLinks } from "../db/schema";
import { getPaymentLink, getPaymentLinkOrThrow } from "./get-payment-link";
import { linkServiceOrThrow } from "./payment-link-record";
import type { PaymentLinkView } from "./payment-link.schema";

/**
 * POST /api/v1/payment-links/:id/deactivate: the link stops taking payments at once (its page
 * answers 410); payments already made stand. Deactivating again changes nothing and answers the same.
 * From the console, `actor` is the member: the audit entry commits with the change (none when
 * nothing changed).
 */
export async function deactivatePaymentLink(
  db: Db,
  options: { serviceId: string; id: string; clock?: Clock; actor?: AuditActor },
): Promise<PaymentLinkView> {
  const link = await getPaymentLinkOrThrow(db, options);
  const now = (await linkServiceOrThrow(db, options.serviceId, options.clock)).clock.now();
  await db.transaction(async (tx) => {
    const changed = await tx
      .update(paymentLinks)
      .set({ deactivatedAt: now })
      .where(and(eq(paymentLinks.id, link.id), isNull(paymentLinks.deactivatedAt)))
      .returning({ id: paymentLinks.id });
    if (changed.length > 0 && options.actor) {
      await recordAuditEntry(tx, {
        actor: options.actor,
        serviceId: options.serviceId,
        action: "payment_link_deactivated",
        target: link.id,
      });
    }
  });
  return getPaymentLink(db, options);
}
