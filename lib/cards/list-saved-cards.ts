import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { savedCards } from "../db/schema";

export type SavedCardRow = typeof savedCards.$inferSelect;

/**
 * A customer's live saved cards, most recently used first, then most recently saved
 * (interface "Cards" 1); clients render them in this order.
 */
export async function listSavedCards(
  db: Db,
  options: { serviceId: string; customerId: string; paymentMethodCode?: string },
): Promise<SavedCardRow[]> {
  return db
    .select()
    .from(savedCards)
    .where(
      and(
        eq(savedCards.serviceId, options.serviceId),
        eq(savedCards.customerId, options.customerId),
        isNull(savedCards.deletedAt),
        options.paymentMethodCode ? eq(savedCards.paymentMethodCode, options.paymentMethodCode) : undefined,
      ),
    )
    .orderBy(desc(savedCards.lastUsedAt), desc(savedCards.createdAt), desc(savedCards.id));
}

/** One live saved card of the customer, or null (another customer's card does not exist here). */
export async function findSavedCard(
  db: Db,
  options: { serviceId: string; customerId: string; cardId: string },
): Promise<SavedCardRow | null> {
  if (!UUID.test(options.cardId)) return null;
  const [card] = await db
    .select()
    .from(savedCards)
    .where(
      and(
        eq(savedCards.id, options.cardId),
        eq(savedCards.serviceId, options.serviceId),
        eq(savedCards.customerId, options.customerId),
        isNull(savedCards.deletedAt),
      ),
    );
  return card ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
