import { cardCancel, cardCapture, cardRefund } from "./card-operations";
import { cardFunds } from "./card-funds";
import type { PaymentMethodModule } from "../contract/payment-method-module";
import { prepareCardProceed, proceedWithCard, type PreparedCardProceed } from "./proceed-with-card";

/**
 * CARD_PROVIDER: a card entered (or a saved one chosen) on the hosted card page and confirmed
 * with the card provider; the proceed only creates the provider intent. It records no charge
 * of its own at proceed, so there is nothing to withdraw, retry or send after the commit.
 */
export const cardMethod: PaymentMethodModule<PreparedCardProceed> = {
  code: "CARD_PROVIDER",
  hostedStep: "card",
  showsQrCodeForQrIntents: false,
  userListing: "savedCards",
  prepareProceed: (db, { principal, payment }) => prepareCardProceed(db, { principal, payment }),
  proceed: proceedWithCard,
  // An unused provider intent moves no money (prepareCardProceed).
  withdrawPrepared: async () => {},
  chargeToRetryOnProceed: async () => null,
  completePendingCharge: async (_db, operation) => {
    throw new Error(`a card proceed records no charge to send (operation ${operation.id})`);
  },
  // The intent is confirmed in the buyer's browser; the gateway's own calls move it on afterwards.
  providerOperations: [cardCapture, cardCancel, cardRefund],
  funds: cardFunds,
  redirect: null,
  console: { kind: "card", showsCard: true },
  endUserMessages: {
    requiresAction: "Please enter your card details on the payment page.",
    preAuthorized: "The amount is authorized on your card.",
  },
};
