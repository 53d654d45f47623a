import type { SavedCardRow } from "./list-saved-cards";

/** Interface "Saved card". */
export interface SavedCardView {
  id: string;
  brand: string;
  last4: string;
  /** Deprecated alias of last4, kept for older clients. */
  number: string;
  expMonth: number | null;
  expYear: number | null;
  paymentMethodId: string;
  paymentMethodCode: string;
  isMostRecentlyUsed: boolean;
  createdAt: string;
}

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
