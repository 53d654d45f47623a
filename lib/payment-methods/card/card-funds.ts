import type { MethodFunds } from "../../payments/core/method-funds";
import { cancelUnfinishedCardIntent, cardOperationRequest } from "./card-operations";

/** CARD_PROVIDER's funds (lib/payments/core/method-funds.ts): the card provider's intent, canceled to return a hold. */
export const cardFunds: MethodFunds = {
  provider: "card",
  releaseKind: "cancel",
  request: cardOperationRequest,
  expiry: {
    // The card is confirmed in the buyer's browser, not by a charge the gateway sends.
    chargeOpen: async () => false,
    closeUnfinished: cancelUnfinishedCardIntent,
  },
};
