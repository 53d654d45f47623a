/**
 * What the gateway knows of the wallet method without loading it (lib/payment-methods/declarations).
 * REDIRECT: the wallet's OTP happens on the gateway's hosted page and the buyer comes back
 * afterwards. Its variables stay in lib/config.ts: production cannot start without them.
 */
export const walletDeclaration = {
  code: "WALLET_V2",
  provider: "wallet",
  catalog: {
    name: "wallet-v2",
    displayNames: { en: "Wallet", fr: "Portefeuille", ar: "المحفظة" },
    imagePath: "/payment-methods/wallet.svg",
    archetype: "REDIRECT",
    position: 10,
  },
  settings: {},
} as const;
