/**
 * What the gateway knows of the card method without loading it (lib/payment-methods/declarations).
 * REDIRECT, not IN_SDK: the card's entry (with 3DS) happens on the gateway's hosted page, so the
 * card number and CVC never enter the merchant's page, which keeps merchants out of card-data
 * scope; the publishable key endpoint stays for SDKs that confirm with the provider themselves.
 * Its variables stay in lib/config.ts: the card provider is the gateway's own, not a merchant's rail.
 */
export const cardDeclaration = {
  code: "CARD_PROVIDER",
  provider: "card",
  catalog: {
    name: "card-provider",
    displayNames: { en: "Bank card", fr: "Carte bancaire", ar: "البطاقة البنكية" },
    imagePath: "/payment-methods/card.svg",
    archetype: "REDIRECT",
    position: 20,
  },
  settings: {},
} as const;
