import { and, eq, isNull } from "drizzle-orm";
import type { UserPrincipal } from "../auth/principal";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import { savedCards } from "../db/schema";
import { ApiError } from "../errors/api-error";
import { beginProviderOperation, completeProviderOperation, operationId } from "../provider-operations";
import { findSavedCard } from "./list-saved-cards";
import { cardDetach } from "./detach-card-operation";

/**
 * Deletes one of the customer's saved cards: it leaves every list and page at once, and the
 * provider forgets the token so it can never be charged again. Another customer's card, an
 * unknown id and a card deleted before all answer the same 404.
 */
export async function deleteSavedCard(db: Db, options: { principal: UserPrincipal; cardId: string }): Promise<void> {
  const { principal } = options;
  const now = serviceClock(principal.service).now();
  const detach = await db.transaction(async (tx) => {
    const card = await findSavedCard(tx, {
      serviceId: principal.service.id,
      customerId: principal.customerId,
      cardId: options.cardId,
    });
    if (!card) throw new ApiError("not_found", "No such card.");
    const [deleted] = await tx
      .update(savedCards)
      .set({ deletedAt: now })
      .where(and(eq(savedCards.id, card.id), isNull(savedCards.deletedAt)))
      .returning({ id: savedCards.id });
    // A parallel delete got there first: the card is gone either way, as this caller asked.
    if (!deleted) throw new ApiError("not_found", "No such card.");
    // The provider forgets the token after this commits; recorded first so it is never lost.
    return beginProviderOperation(tx, {
      id: operationId(`card-detach:${card.id}`),
      paymentId: null,
      provider: "card",
      kind: "detach",
      // A saved card belongs to the service's provider account; the adapter picks it by service.
      request: {
        providerPaymentMethodId: card.providerPaymentMethodId,
        account: { serviceId: principal.service.id, country: principal.service.countries[0] ?? "" },
      },
    });
  });
  // The card is gone for the customer either way; an unreachable provider is asked again by reconciliation.
  await completeProviderOperation(db, detach, cardDetach).catch(() => undefined);
}
