import { getConfig } from "../config";
import type { paymentMethodCatalog } from "../db/schema";
import { brandName } from "../cards/card-number";
import type { SavedCardRow } from "../cards/list-saved-cards";
import { brandImagePath, type Archetype } from "./catalog-defaults";

type CatalogRow = typeof paymentMethodCatalog.$inferSelect;

/** Interface "Payment method item" of the available list. */
export interface PaymentMethodItem {
  id: string;
  name: string;
  code: string;
  displayName: string;
  image: string;
  archetype?: Archetype;
  label?: string;
}

/** The user-context list's items: methods (with the wallet's balance) and saved cards. */
export type UserPaymentMethodItem =
  | (PaymentMethodItem & { paymentOptionType: "wallet" | "paymentMethod"; balance?: number; currency?: string })
  | { id: string; name: string; code: string; image: string; paymentOptionType: "card" };

export const imageUrl = (path: string) => `${getConfig().publicBaseUrl}${path}`;

export function toPaymentMethodItem(row: CatalogRow, language: "en" | "fr" | "ar"): PaymentMethodItem {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    displayName: row.displayNames[language] ?? row.displayNames.en ?? row.name,
    image: imageUrl(row.imagePath),
    ...(row.archetype ? { archetype: row.archetype } : {}),
    ...(row.label ? { label: row.label } : {}),
  };
}

/** A saved card as a list item: its id is the cardId to proceed with, no archetype, no displayName. */
export function toSavedCardItem(card: SavedCardRow): UserPaymentMethodItem {
  return {
    id: card.id,
    name: `${brandName(card.brand)} *** ${card.last4}`,
    code: card.paymentMethodCode,
    image: imageUrl(brandImagePath(card.brand)),
    paymentOptionType: "card",
  };
}
