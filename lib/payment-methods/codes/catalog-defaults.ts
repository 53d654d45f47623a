import type { Locale } from "../../i18n/routing";
import type { PaymentMethodCode } from "./payment-method-codes";

export type Archetype = "IN_SDK" | "REDIRECT";

export interface CatalogDefault {
  code: PaymentMethodCode;
  name: string;
  displayNames: Record<Locale, string>;
  imagePath: string;
  archetype: Archetype;
  position: number;
  /** The countries whose onboarding enables it (all when absent), and whether only the sandbox does (contract 15: production needs the merchant's credentials first). */
  countries?: readonly string[];
  sandboxOnly?: boolean;
}

/**
 * What onboarding enables in each country (contract section 9). Both methods are REDIRECT:
 * the wallet's OTP and the card's entry (with 3DS) happen on the gateway's hosted pages and
 * the buyer comes back afterwards. The card is deliberately not IN_SDK: the card number and
 * CVC never enter the merchant's page, which keeps merchants out of card-data scope; the
 * publishable key endpoint stays for SDKs that confirm with the provider themselves.
 */
export const CATALOG_DEFAULTS: readonly CatalogDefault[] = [
  {
    code: "WALLET_V2",
    name: "wallet-v2",
    displayNames: { en: "Wallet", fr: "Portefeuille", ar: "المحفظة" },
    imagePath: "/payment-methods/wallet.svg",
    archetype: "REDIRECT",
    position: 10,
  },
  {
    code: "CARD_PROVIDER",
    name: "card-provider",
    displayNames: { en: "Bank card", fr: "Carte bancaire", ar: "البطاقة البنكية" },
    imagePath: "/payment-methods/card.svg",
    archetype: "REDIRECT",
    position: 20,
  },
  {
    code: "SATIM",
    name: "satim",
    displayNames: { en: "CIB / EDAHABIA", fr: "CIB / EDAHABIA", ar: "CIB / الذهبية" },
    imagePath: "/payment-methods/cib-edahabia.svg",
    archetype: "REDIRECT",
    position: 30,
    countries: ["DZA"],
    sandboxOnly: true,
  },
  {
    code: "CLICTOPAY",
    name: "clictopay",
    displayNames: { en: "ClicToPay", fr: "ClicToPay", ar: "كليك تو باي" },
    imagePath: "/payment-methods/clictopay.svg",
    archetype: "REDIRECT",
    position: 40,
    countries: ["TUN"],
    sandboxOnly: true,
  },
  {
    code: "CMI",
    name: "cmi",
    displayNames: { en: "CMI (bank card)", fr: "CMI (carte bancaire)", ar: "CMI (البطاقة البنكية)" },
    imagePath: "/payment-methods/cmi.svg",
    archetype: "REDIRECT",
    position: 50,
    countries: ["MAR"],
    sandboxOnly: true,
  },
  {
    code: "CHARGILY",
    name: "chargily",
    displayNames: { en: "Chargily Pay (CIB / EDAHABIA)", fr: "Chargily Pay (CIB / EDAHABIA)", ar: "شارجيلي باي (CIB / الذهبية)" },
    imagePath: "/payment-methods/chargily.svg",
    archetype: "REDIRECT",
    position: 35,
    countries: ["DZA"],
    sandboxOnly: true,
  },
];

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
