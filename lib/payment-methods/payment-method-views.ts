import type { Locale } from "../i18n/routing";
import { z } from "zod";
import { getConfig } from "../config";
import type { paymentMethodCatalog } from "../db/schema";
import { brandName } from "../validation/card-number";
import type { SavedCardRow } from "../cards/list-saved-cards";
import { brandImagePath } from "./codes/catalog-defaults";

type CatalogRow = typeof paymentMethodCatalog.$inferSelect;

/** Interface "Payment method item" of the available list. */
export const paymentMethodItem = z
  .object({
    id: z.string(),
    name: z.string().meta({ description: "Internal name." }),
    code: z
      .string()
      .meta({ description: "Use as `paymentMethodCode` when proceeding: `WALLET_V2` or `CARD_PROVIDER`." }),
    displayName: z.string().meta({ description: "Localized by `x-locale`." }),
    image: z.string(),
    archetype: z.enum(["IN_SDK", "REDIRECT"]).optional().meta({
      description: "`IN_SDK`: render the form inline; `REDIRECT`: hand off to a hosted page and resume on return.",
    }),
    label: z
      .string()
      .optional()
      .meta({ description: "Tenant-specific label overriding displayName, only when configured." }),
  })
  .meta({ id: "PaymentMethodItem" });

/** The user-context list's items: methods (with the wallet's balance) and saved cards. */
export const userPaymentMethodItem = z
  .union([
    paymentMethodItem.extend({
      paymentOptionType: z.enum(["wallet", "paymentMethod"]),
      balance: z.number().optional().meta({ description: "Wallet only: the available balance." }),
      currency: z.string().optional().meta({ description: "Wallet only: the balance's currency." }),
    }),
    z
      .object({
        id: z.string().meta({ description: "The `cardId` to proceed with." }),
        name: z.string().meta({ description: "`<brand> *** <last4>`." }),
        code: z.string(),
        image: z.string(),
        paymentOptionType: z.literal("card"),
      })
      .meta({ description: "A saved card: no archetype and no displayName." }),
  ])
  .meta({ id: "UserPaymentMethodItem" });

export type PaymentMethodItem = z.infer<typeof paymentMethodItem>;
export type UserPaymentMethodItem = z.infer<typeof userPaymentMethodItem>;

export const imageUrl = (path: string) => `${getConfig().publicBaseUrl}${path}`;

export function toPaymentMethodItem(row: CatalogRow, language: Locale): PaymentMethodItem {
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
