import type { Locale } from "../../i18n/routing";
import { METHOD_DECLARATIONS, type Archetype, type MethodDeclaration } from "../declarations/method-declarations";
import type { PaymentMethodCode } from "./payment-method-codes";

export type { Archetype };

/** A method's catalog row as onboarding seeds it: its code and its declaration's catalog defaults. */
export type CatalogDefault = { code: PaymentMethodCode } & Omit<MethodDeclaration["catalog"], "displayNames"> & {
    displayNames: Readonly<Record<Locale, string>>;
  };

/**
 * What onboarding enables in each country (contract section 9): each method's catalog row, as its declaration
 * (lib/payment-methods/<method>/declaration) gives it.
 */
export const CATALOG_DEFAULTS: readonly CatalogDefault[] = METHOD_DECLARATIONS.map((method) => ({
  code: method.code,
  ...method.catalog,
}));

/** A saved card's picture: its brand's logo, else the generic card. */
export function brandImagePath(brand: string): string {
  switch (brand) {
    case "visa":
      return "/payment-methods/visa.svg";
    case "mastercard":
      return "/payment-methods/mastercard.svg";
    default:
      return "/payment-methods/card.svg";
  }
}
