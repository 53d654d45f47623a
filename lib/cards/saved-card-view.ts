import { z } from "zod";
import type { SavedCardRow } from "./list-saved-cards";

/** Interface "Saved card". */
export const savedCardView = z
  .object({
    id: z.string().meta({ description: "The `cardId` to proceed with." }),
    brand: z.string().meta({ description: "Lower-case brand, e.g. `visa`." }),
    last4: z.string().regex(/^[0-9]{4}$/),
    number: z.string().meta({ deprecated: true, description: "Deprecated alias of last4, kept for older clients." }),
    expMonth: z.number().int().min(1).max(12).nullable(),
    expYear: z.number().int().nullable(),
    paymentMethodId: z.string(),
    paymentMethodCode: z.string(),
    isMostRecentlyUsed: z.boolean().meta({ description: "True for exactly one card, the first." }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "SavedCard" });

export type SavedCardView = z.infer<typeof savedCardView>;

/** The list in its order; the first card is the most recently used one, and only it says so. */
export function toSavedCardViews(cards: SavedCardRow[]): SavedCardView[] {
  return cards.map((card, index) => ({
    id: card.id,
    brand: card.brand,
    last4: card.last4,
    number: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    paymentMethodId: card.providerPaymentMethodId,
    paymentMethodCode: card.paymentMethodCode,
    isMostRecentlyUsed: index === 0,
    createdAt: card.createdAt.toISOString(),
  }));
}
